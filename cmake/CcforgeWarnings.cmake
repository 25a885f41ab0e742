# Warning flags for every ccforge target (ccforge_set_warnings(target)), and the sanitizer build.
function(ccforge_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wnon-virtual-dtor -Wimplicit-fallthrough>
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wshadow=local>
    $<$<AND:$<BOOL:${CCFORGE_WERROR}>,$<COMPILE_LANGUAGE:CXX>>:-Werror>)
endfunction()

if(CCFORGE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
