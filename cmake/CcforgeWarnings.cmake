# Warning flags for every ccforge target (ccforge_set_warnings(target)), and the sanitizer build.
function(ccforge_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wnon-virtual-dtor -Wimplicit-fallthrough>
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wshadow=local>
    # GCC 12 at -O3 reports -Wrestrict on std::string assignments it inlines from other
    # libraries (Boost.Multiprecision's to-string) where no overlap is possible (GCC bug 105329).
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>
    $<$<AND:$<BOOL:${CCFORGE_WERROR}>,$<COMPILE_LANGUAGE:CXX>>:-Werror>)
endfunction()

if(CCFORGE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  # GCC 12's ASan instrumentation makes it report false -Wmaybe-uninitialized inside libstdc++
  # (<regex>, <functional>); the plain build keeps the warning.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options(-Wno-maybe-uninitialized)
  endif()
  add_link_options(-fsanitize=address,undefined)
endif()
