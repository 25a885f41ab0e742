// The embedded module `_ccforge`: the C++ DSL (dsl::Program, dsl::ChunkRef) as the Python
// package python/msccl sees it. Every call takes the position in the user's script that the
// Python layer found (file, line, column), so that DslError and the trace point at the script.
#include <pybind11/embed.h>
#include <pybind11/stl.h>

#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "dsl/dsl_error.hpp"
#include "dsl/program.hpp"
#include "ir/names.hpp"
#include "python/script_runner.hpp"
#include "python/session.hpp"

namespace py = pybind11;

namespace ccforge::python {
namespace {

ir::Buffer bufferOf(const std::string& name) {
  if (name == "i" || name == "input") return ir::Buffer::Input;
  if (name == "o" || name == "output") return ir::Buffer::Output;
  if (name == "s" || name == "scratch") return ir::Buffer::Scratch;
  throw std::invalid_argument("unknown buffer '" + name + "' (i, o or s)");
}

const char* bufferLetter(ir::Buffer b) { return b == ir::Buffer::Input ? "i" : b == ir::Buffer::Output ? "o" : "s"; }

// A position in the user's script: the Python layer's (file, line, column) tuple. The layer keeps
// one tuple per place (msccl.language._where.caller), so the position is read once per tuple; the
// session holds a reference to each tuple it read, so that no other tuple takes its address.
dsl::SourcePos at(const py::tuple& where) {
  std::unordered_map<const void*, dsl::SourcePos>& places = Session::current().places();
  if (const auto it = places.find(where.ptr()); it != places.end()) return it->second;
  if (where.size() != 3) throw std::invalid_argument("a position is (file, line, column)");
  const dsl::SourcePos pos(Session::intern(where[0].cast<std::string>()), where[1].cast<uint32_t>(),
                           where[2].cast<uint32_t>());
  where.inc_ref();
  places.emplace(where.ptr(), pos);
  return pos;
}

std::vector<semantics::ChunkMapEntry> entriesOf(
    const std::vector<std::tuple<int32_t, int32_t, std::vector<std::pair<int32_t, int32_t>>>>& in) {
  std::vector<semantics::ChunkMapEntry> out;
  for (const auto& [rank, index, atoms] : in) {
    semantics::ChunkMapEntry e{rank, index, {}};
    for (const auto& [r, i] : atoms) e.value.push_back(semantics::Atom{r, i});
    out.push_back(std::move(e));
  }
  return out;
}

using EntryList = std::vector<std::tuple<int32_t, int32_t, std::vector<std::pair<int32_t, int32_t>>>>;

std::shared_ptr<dsl::Program> makeProgram(const std::string& name, const std::string& collective, int32_t ranks,
                                          int32_t chunkFactor, bool inplace, const std::string& protocol,
                                          int32_t instances, const py::object& custom, const py::object& product) {
  dsl::CollectiveBinding binding;
  binding.ranks = ranks;
  binding.chunkFactor = chunkFactor;
  binding.form = inplace ? semantics::CallForm::InPlace : semantics::CallForm::OutOfPlace;
  if (custom.is_none()) {
    const auto type = semantics::parseCollectiveType(collective);
    if (!type || *type == semantics::CollectiveType::Custom)
      throw std::invalid_argument("unknown collective '" + collective + "'");
    binding.type = *type;
  } else {
    binding.type = semantics::CollectiveType::Custom;
    semantics::CustomCollectiveSpec spec;
    spec.name = collective;
    spec.ranks = ranks;
    spec.inputChunks = custom.attr("input_chunks").cast<int32_t>();
    spec.outputChunks = custom.attr("output_chunks").cast<int32_t>();
    spec.pre = entriesOf(custom.attr("pre").cast<EntryList>());
    spec.post = entriesOf(custom.attr("post").cast<EntryList>());
    binding.custom = std::move(spec);
  }
  if (!product.is_none()) {  // (op, rows, cols, inner, table_rows): msccl.language.Product
    const auto [op, rows, cols, inner, tableRows] =
        product.cast<std::tuple<std::string, int32_t, int32_t, int32_t, int32_t>>();
    const auto computeOp = ir::parseComputeOp(op);
    if (!computeOp) throw std::invalid_argument("unknown fused operator '" + op + "' (gemv, embag or gemm)");
    binding.product = dsl::FusedProduct{*computeOp, rows, cols, inner, tableRows};
  }
  dsl::ProgramOptions options;
  const auto proto = ir::parseProtocol(protocol);
  if (!proto) throw std::invalid_argument("unknown protocol '" + protocol + "' (Simple, LL or LL128)");
  options.protocol = *proto;
  options.instances = instances;
  auto program = std::make_shared<dsl::Program>(name, std::move(binding), options);
  Session::current().programCreated(program);
  return program;
}

dsl::Directives directives(int32_t ch, int32_t sendtb, int32_t recvtb) { return dsl::Directives{ch, sendtb, recvtb}; }

}  // namespace

void linkBindings() {}  // referenced by the runner, so that the module below is always linked

}  // namespace ccforge::python

using ccforge::python::at;
using ccforge::python::bufferOf;

PYBIND11_EMBEDDED_MODULE(_ccforge, m) {
  namespace dsl = ccforge::dsl;
  namespace python = ccforge::python;
  m.doc() = "ccforge's MSCCLang DSL and compiler session (embedded; see docs/python.md)";

  // A handle, not a py::exception object: nothing to destroy after the interpreter is gone.
  static py::handle dslError = py::exception<dsl::DslError>(m, "DslError").release();
  // By value: pybind11's translator type is void (*)(std::exception_ptr).
  py::register_exception_translator([](std::exception_ptr p) {  // NOLINT(performance-unnecessary-value-param)
    try {
      if (p) std::rethrow_exception(p);
    } catch (const dsl::DslError& e) {
      // args = (message, file, line, column): the runner prints FILE:LINE:COL from them.
      py::tuple args = py::make_tuple(e.call() + ": " + e.message(), std::string(e.where().file_name()),
                                      e.where().line(), e.where().column());
      PyErr_SetObject(dslError.ptr(), args.ptr());
    }
  });

  // A ChunkRef points into its Program. No keep_alive ties the two: every ChunkRef the package
  // holds sits in a msccl.language.Ref, which holds the MSCCLProgram that owns the Program (and a
  // keep_alive on copy would keep every reference of a chain alive until the script ends).
  py::class_<dsl::ChunkRef>(m, "ChunkRef")
      .def_property_readonly("rank", &dsl::ChunkRef::rank)
      .def_property_readonly("buffer",
                             [](const dsl::ChunkRef& r) { return std::string(python::bufferLetter(r.buffer())); })
      .def_property_readonly("index", &dsl::ChunkRef::index)
      .def_property_readonly("count", &dsl::ChunkRef::count)
      .def("copy",
           [](const dsl::ChunkRef& self, int32_t rank, const std::string& buffer, int32_t index, int32_t ch,
              int32_t sendtb, int32_t recvtb, const py::tuple& where) {
             return self.copy(rank, bufferOf(buffer), index, python::directives(ch, sendtb, recvtb), at(where));
           })
      .def("reduce",
           [](const dsl::ChunkRef& self, const dsl::ChunkRef& other, int32_t ch, int32_t sendtb, int32_t recvtb,
              const py::tuple& where) { return self.reduce(other, python::directives(ch, sendtb, recvtb), at(where)); })
      .def(
          "split",
          [](const dsl::ChunkRef& self, int32_t parts, const py::tuple& where) { return self.split(parts, at(where)); },
          "the parts, in order")
      .def("group", [](const dsl::ChunkRef& self, const dsl::ChunkRef& other, const py::tuple& where) {
        return self.group(other, at(where));
      });

  py::class_<dsl::Program, std::shared_ptr<dsl::Program>>(m, "Program")
      .def(py::init(&python::makeProgram), py::arg("name"), py::arg("collective"), py::arg("ranks"),
           py::arg("chunk_factor"), py::arg("inplace"), py::arg("protocol"), py::arg("instances"), py::arg("custom"),
           py::arg("product") = py::none())
      .def_property_readonly("name", &dsl::Program::name)
      .def_property_readonly("ranks", &dsl::Program::ranks)
      .def_property_readonly("trace_length", [](const dsl::Program& p) { return p.trace().size(); })
      .def("chunk", [](dsl::Program& self, int32_t rank, const std::string& buffer, int32_t index, int32_t count,
                       const py::tuple& where) { return self.chunk(rank, bufferOf(buffer), index, count, at(where)); })
      .def("compute",
           [](dsl::Program& self, int32_t rank, int32_t index, int32_t count, int32_t ch, int32_t sendtb,
              const py::tuple& where) {
             return self.compute(rank, index, count, python::directives(ch, sendtb, -1), at(where));
           })
      .def(
          "value",
          [](const dsl::Program& self, int32_t rank, const std::string& buffer, int32_t index) -> py::object {
            if (rank < 0 || rank >= self.ranks() || index < 0) return py::none();
            const auto id = self.valueAt(rank, bufferOf(buffer), index);
            if (id == ccforge::semantics::ChunkValues::kUninitialized) return py::none();
            py::list atoms;
            for (const ccforge::semantics::Atom& a : self.values().atoms(id))
              atoms.append(py::make_tuple(a.rank, a.index));
            return atoms;
          },
          "the input chunks (rank, index) summed in a location, sorted; None if it holds no data")
      .def("shares_memory",
           [](const dsl::Program& self, int32_t rank, const std::string& a, int32_t ia, const std::string& b,
              int32_t ib, int32_t count) {
             return self.sharesMemory(dsl::ChunkLocation{rank, bufferOf(a), ia}, count,
                                      dsl::ChunkLocation{rank, bufferOf(b), ib}, count);
           })
      .def("set_postcondition",
           [](dsl::Program& self, const python::EntryList& post) {
             self.replaceCustomPostcondition(python::entriesOf(post));
           })
      .def("check_postcondition",
           [](const dsl::Program& self) {
             const auto result = self.checkPostcondition();
             return py::make_tuple(result.mismatches, result.details);
           })
      .def(
          "emit",
          [](const std::shared_ptr<dsl::Program>& self, const py::tuple& where) {
            python::Session::current().programEmitted(self, at(where));
          },
          "XML(): hands the program to the ccforge command that runs the script");
}
