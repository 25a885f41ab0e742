#include "dsl/program_transfer.hpp"

#include <cstring>
#include <memory>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace ccforge::dsl {
namespace {

constexpr std::string_view kMagic = "ccforge-programs-1";

class Writer {
 public:
  template <typename T>
  void put(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    out_.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  void putString(std::string_view s) {
    put(static_cast<uint64_t>(s.size()));
    out_.append(s);
  }
  void putMagic() { out_.append(kMagic); }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  template <typename T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value;
    std::memcpy(&value, take(sizeof value).data(), sizeof value);
    return value;
  }
  // An enum stored as its underlying value, refused past `last`.
  template <typename E>
  E getEnum(E last) {
    const auto raw = get<std::underlying_type_t<E>>();
    if (raw > static_cast<std::underlying_type_t<E>>(last)) throw TransferError("an enum value out of range");
    return static_cast<E>(raw);
  }
  std::string getString() { return std::string(take(get<uint64_t>())); }
  // A count of items each at least `minBytes` long: refused when the rest cannot hold them.
  uint64_t getCount(size_t minBytes) {
    const auto n = get<uint64_t>();
    if (n > (in_.size() - at_) / minBytes) throw TransferError("a count larger than the data");
    return n;
  }
  void expectMagic() {
    if (take(kMagic.size()) != kMagic) throw TransferError("not a transfer of programs");
  }
  bool done() const { return at_ == in_.size(); }

 private:
  std::string_view take(size_t n) {
    if (n > in_.size() - at_) throw TransferError("the data ends early");
    std::string_view s = in_.substr(at_, n);
    at_ += n;
    return s;
  }
  std::string_view in_;
  size_t at_ = 0;
};

void putEntries(Writer& w, const std::vector<semantics::ChunkMapEntry>& entries) {
  w.put(static_cast<uint64_t>(entries.size()));
  for (const semantics::ChunkMapEntry& e : entries) {
    w.put(e.rank);
    w.put(e.index);
    w.put(static_cast<uint64_t>(e.value.size()));
    for (const semantics::Atom& a : e.value) {
      w.put(a.rank);
      w.put(a.index);
    }
  }
}

std::vector<semantics::ChunkMapEntry> getEntries(Reader& r) {
  std::vector<semantics::ChunkMapEntry> entries(r.getCount(16));
  for (semantics::ChunkMapEntry& e : entries) {
    e.rank = r.get<int32_t>();
    e.index = r.get<int32_t>();
    e.value.resize(r.getCount(8));
    for (semantics::Atom& a : e.value) {
      a.rank = r.get<int32_t>();
      a.index = r.get<int32_t>();
    }
  }
  return entries;
}

// File names of source positions, each written once: positions refer to them by number.
class FileTable {
 public:
  uint32_t number(const char* file) {
    const auto [it, added] = numbers_.try_emplace(file, static_cast<uint32_t>(names_.size()));
    if (added) names_.push_back(file);
    return it->second;
  }
  const std::vector<const char*>& names() const { return names_; }

 private:
  std::unordered_map<const char*, uint32_t> numbers_;
  std::vector<const char*> names_;
};

void putPosition(Writer& w, FileTable& files, SourcePos p) {
  w.put(files.number(p.file_name()));
  w.put(p.line());
  w.put(p.column());
}

SourcePos getPosition(Reader& r, const std::vector<const char*>& files) {
  const auto file = r.get<uint32_t>();
  if (file >= files.size()) throw TransferError("a position names no file");
  const auto line = r.get<uint32_t>();
  return SourcePos(files[file], line, r.get<uint32_t>());
}

void putLocation(Writer& w, const ChunkLocation& l) {
  w.put(l.rank);
  w.put(l.buffer);
  w.put(l.index);
}

ChunkLocation getLocation(Reader& r) {
  ChunkLocation l;
  l.rank = r.get<int32_t>();
  l.buffer = r.getEnum(ir::Buffer::Scratch);
  l.index = r.get<int32_t>();
  return l;
}

void putProgram(Writer& w, FileTable& files, const Program& p) {
  w.putString(p.name());
  const CollectiveBinding& b = p.binding();
  w.put(b.type);
  w.put(b.ranks);
  w.put(b.chunkFactor);
  w.put(b.form);
  w.put(b.root);
  w.put(static_cast<uint8_t>(b.custom.has_value()));
  if (b.custom) {
    w.putString(b.custom->name);
    w.put(b.custom->ranks);
    w.put(b.custom->inputChunks);
    w.put(b.custom->outputChunks);
    w.put(static_cast<uint8_t>(b.custom->pre.has_value()));
    if (b.custom->pre) putEntries(w, *b.custom->pre);
    putEntries(w, b.custom->post);
  }
  w.put(static_cast<uint8_t>(b.product.has_value()));
  if (b.product) {
    w.put(b.product->op);
    w.put(b.product->rows);
    w.put(b.product->cols);
    w.put(b.product->inner);
    w.put(b.product->tableRows);
  }
  w.put(p.options().protocol);
  w.put(p.options().instances);
  w.put(static_cast<uint64_t>(p.trace().size()));
  for (const TraceOp& op : p.trace()) {
    w.put(op.kind);
    putLocation(w, op.src);
    putLocation(w, op.dst);
    w.put(op.count);
    w.put(op.directives.ch);
    w.put(op.directives.sendtb);
    w.put(op.directives.recvtb);
    w.put(op.parallel);
    putPosition(w, files, op.where);
  }
}

// Rebuilds the program through the DSL's own calls: each operation from fresh references to the
// locations it names, so the DSL checks ranges, data and directives as it did for the script.
std::shared_ptr<Program> getProgram(Reader& r, const std::vector<const char*>& files) {
  std::string name = r.getString();
  CollectiveBinding b;
  b.type = r.getEnum(semantics::CollectiveType::Custom);
  b.ranks = r.get<int32_t>();
  b.chunkFactor = r.get<int32_t>();
  b.form = r.getEnum(semantics::CallForm::OutOfPlace);
  b.root = r.get<int32_t>();
  if (r.get<uint8_t>()) {
    semantics::CustomCollectiveSpec spec;
    spec.name = r.getString();
    spec.ranks = r.get<int32_t>();
    spec.inputChunks = r.get<int32_t>();
    spec.outputChunks = r.get<int32_t>();
    if (r.get<uint8_t>()) spec.pre = getEntries(r);
    spec.post = getEntries(r);
    b.custom = std::move(spec);
  }
  if (r.get<uint8_t>()) {
    FusedProduct product;
    product.op = r.getEnum(ir::ComputeOp::Gemm);
    product.rows = r.get<int32_t>();
    product.cols = r.get<int32_t>();
    product.inner = r.get<int32_t>();
    product.tableRows = r.get<int32_t>();
    b.product = product;
  }
  ProgramOptions options;
  options.protocol = r.getEnum(ir::Protocol::LL128);
  options.instances = r.get<int32_t>();
  auto program = std::make_shared<Program>(std::move(name), std::move(b), options);
  const uint64_t ops = r.getCount(1);
  for (uint64_t i = 0; i < ops; ++i) {
    const auto kind = r.getEnum(TraceOpKind::Compute);
    const ChunkLocation src = getLocation(r), dst = getLocation(r);
    const auto count = r.get<int32_t>();
    Directives d;
    d.ch = r.get<int32_t>();
    d.sendtb = r.get<int32_t>();
    d.recvtb = r.get<int32_t>();
    const auto parallel = r.get<int32_t>();
    const SourcePos where = getPosition(r, files);
    auto replay = [&] {
      switch (kind) {
        case TraceOpKind::Copy:
          program->chunk(src.rank, src.buffer, src.index, count, where).copy(dst.rank, dst.buffer, dst.index, d, where);
          break;
        case TraceOpKind::Reduce:
          program->chunk(dst.rank, dst.buffer, dst.index, count, where)
              .reduce(program->chunk(src.rank, src.buffer, src.index, count, where), d, where);
          break;
        case TraceOpKind::Compute: program->compute(dst.rank, dst.index, count, d, where); break;
      }
    };
    if (parallel == 1)
      replay();
    else
      program->parallelize(parallel, replay, where);
  }
  return program;
}

}  // namespace

std::string encodePrograms(const ProgramTransfer& transfer) {
  FileTable files;
  Writer body;
  body.put(static_cast<uint64_t>(transfer.programs.size()));
  for (const auto& p : transfer.programs) putProgram(body, files, *p);
  body.put(static_cast<uint64_t>(transfer.marked.size()));
  for (const auto& [n, at] : transfer.marked) {
    body.put(static_cast<uint64_t>(n));
    putPosition(body, files, at);
  }
  body.put(transfer.last);

  Writer w;
  w.putMagic();
  w.put(transfer.status);
  w.putString(transfer.message);
  w.put(static_cast<uint64_t>(files.names().size()));
  for (const char* f : files.names()) w.putString(f);
  std::string out = w.take();
  out += body.take();
  return out;
}

ProgramTransfer decodePrograms(std::string_view bytes,
                               const std::function<const char*(const std::string&)>& keepFileName) {
  Reader r(bytes);
  r.expectMagic();
  ProgramTransfer t;
  t.status = r.get<uint8_t>();
  t.message = r.getString();
  std::vector<const char*> files(r.getCount(8));
  for (const char*& f : files) f = keepFileName(r.getString());
  t.programs.resize(r.getCount(1));
  for (auto& p : t.programs) p = getProgram(r, files);
  t.marked.resize(r.getCount(20));
  for (auto& [n, at] : t.marked) {
    n = r.get<uint64_t>();
    if (n >= t.programs.size()) throw TransferError("a position of a program that is not there");
    at = getPosition(r, files);
  }
  t.last = r.get<int64_t>();
  if (t.last >= static_cast<int64_t>(t.programs.size()) || t.last < -1)
    throw TransferError("a program that is not there");
  if (!r.done()) throw TransferError("data after the programs");
  return t;
}

}  // namespace ccforge::dsl
