// CUDA runtime error handling for host code: every call is checked, failures become exceptions
// that name the operation.
#pragma once

#include <cuda_runtime_api.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace ccforge::runtime {

inline void checkCuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
}

// Device memory on one GPU, zeroed.
class DeviceMemory {
 public:
  DeviceMemory() = default;
  DeviceMemory(int device, size_t bytes) : device_(device), bytes_(bytes) {
    checkCuda(cudaSetDevice(device), "cudaSetDevice");
    checkCuda(cudaMalloc(&data_, bytes ? bytes : 16), "cudaMalloc");
    checkCuda(cudaMemset(data_, 0, bytes ? bytes : 16), "cudaMemset");
  }
  ~DeviceMemory() {
    if (data_) {
      cudaSetDevice(device_);
      cudaFree(data_);
    }
  }
  DeviceMemory(DeviceMemory&& o) noexcept : device_(o.device_), bytes_(o.bytes_), data_(o.data_) { o.data_ = nullptr; }
  DeviceMemory& operator=(DeviceMemory&& o) noexcept {
    std::swap(device_, o.device_);
    std::swap(bytes_, o.bytes_);
    std::swap(data_, o.data_);
    return *this;
  }
  unsigned char* data() const { return static_cast<unsigned char*>(data_); }
  size_t bytes() const { return bytes_; }
  int device() const { return device_; }
  void zero() const { fill(0); }
  void fill(unsigned char byte) const {
    checkCuda(cudaSetDevice(device_), "cudaSetDevice");
    checkCuda(cudaMemset(data_, byte, bytes_ ? bytes_ : 16), "cudaMemset");
  }
  void upload(const void* src, size_t bytes) const {
    checkCuda(cudaSetDevice(device_), "cudaSetDevice");
    checkCuda(cudaMemcpy(data_, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to device");
  }

 private:
  int device_ = 0;
  size_t bytes_ = 0;
  void* data_ = nullptr;
};

// A non-blocking stream on one GPU; destroying it waits for its work.
class Stream {
 public:
  Stream() = default;
  explicit Stream(int device) : device_(device) {
    checkCuda(cudaSetDevice(device), "cudaSetDevice");
    checkCuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  ~Stream() {
    if (stream_) {
      cudaSetDevice(device_);
      cudaStreamSynchronize(stream_);
      cudaStreamDestroy(stream_);
    }
  }
  Stream(Stream&& o) noexcept : device_(o.device_), stream_(o.stream_) { o.stream_ = nullptr; }
  Stream& operator=(Stream&& o) noexcept {
    std::swap(device_, o.device_);
    std::swap(stream_, o.stream_);
    return *this;
  }
  cudaStream_t get() const { return stream_; }

 private:
  int device_ = 0;
  cudaStream_t stream_ = nullptr;
};

// Pinned host memory every GPU can read and write (the watchdog's abort flag and records).
class MappedHostMemory {
 public:
  explicit MappedHostMemory(size_t bytes) : bytes_(bytes) {
    checkCuda(cudaHostAlloc(&data_, bytes ? bytes : 16, cudaHostAllocMapped | cudaHostAllocPortable), "cudaHostAlloc");
    clear();
  }
  ~MappedHostMemory() { cudaFreeHost(data_); }
  MappedHostMemory(const MappedHostMemory&) = delete;
  MappedHostMemory& operator=(const MappedHostMemory&) = delete;
  void* data() const { return data_; }
  void clear() const { std::memset(data_, 0, bytes_ ? bytes_ : 16); }

 private:
  size_t bytes_;
  void* data_ = nullptr;
};

}  // namespace ccforge::runtime
