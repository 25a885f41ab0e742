// Declarations for the parts of libcurl that Azure/msccl-scheduler's src/scheduler.cc names, so that the
// plugin compiles unmodified without libcurl. The plugin asks Azure's metadata service for the VM size only
// when MSCCL_ALGO_DIR is unset; the comparison always sets it, so plugin_driver.cpp defines these to abort.
#pragma once
#include <cstddef>

typedef void CURL;
typedef enum { CURLE_OK = 0, CURLE_FAILED_INIT = 2 } CURLcode;
typedef enum {
  CURLOPT_URL,
  CURLOPT_HTTPHEADER,
  CURLOPT_WRITEFUNCTION,
  CURLOPT_WRITEDATA,
  CURLOPT_CONNECTTIMEOUT
} CURLoption;
struct curl_slist;
#define CURL_GLOBAL_DEFAULT 3L

CURLcode curl_global_init(long flags);
void curl_global_cleanup();
CURL* curl_easy_init();
CURLcode curl_easy_setopt(CURL* handle, CURLoption option, ...);
CURLcode curl_easy_perform(CURL* handle);
void curl_easy_cleanup(CURL* handle);
const char* curl_easy_strerror(CURLcode code);
curl_slist* curl_slist_append(curl_slist* list, const char* value);
