# ParrayFunctions.cmake: build Parray programs with CMake.
#
#   parray_add_sources(TARGET src.pa... [INCLUDE_DIRECTORIES dir...] [OPTIONS opt...]
#                      [LANGUAGE C|CUDA])
#   parray_add_executable(NAME src.pa... [other sources...] [same keywords])
#   parray_enable_cuda([TARGETS t...] [ARCHITECTURES arch...] [OPTIONAL])
#
# Each .pa file is translated by parrayc at build time (add_custom_command,
# with a DEPFILE that lists the Parray headers it includes, so editing one
# rebuilds it) into ${CMAKE_CURRENT_BINARY_DIR}/parray/TARGET/PATH.pa.c, or
# .pa.cu when it uses CUDA (PATH: the file's path from the calling
# directory, so one .pa in several targets and a.pa in two folders are
# distinct translations); the translation is added to TARGET, and TARGET
# links the runtime it needs: Parray::parray, Parray::cuda, Parray::mpi,
# OpenMP::OpenMP_C.  parrayc gets -I for INCLUDE_DIRECTORIES and TARGET's
# INCLUDE_DIRECTORIES, -D for TARGET's COMPILE_DEFINITIONS (both as the
# compiler gets them: generator expressions evaluated, those of linked
# targets included), then OPTIONS, so `#ifdef BIG` around a #parray sees
# what the C compiler sees.
#
# The arguments are checked at the call (an error names its line), and so
# is a back end the project lacks (CUDA not enabled yet: parray_enable_cuda
# comes first) where parrayc can tell then; the back ends are asked from
# parrayc itself (`parrayc --print-backends`) at the end of TARGET's
# CMakeLists.txt (or the caller's, when TARGET's directory is read
# already), with the include directories and definitions TARGET has by
# then, so those set after the call count; CMake re-runs when
# the file or a header it includes changes.  Where parrayc is not built yet
# (add_subdirectory of its sources), the #parray lines of the file and its
# headers are read instead.  LANGUAGE overrides the choice of C or CUDA.
# The caller may be another directory than TARGET's.  Needs Parray::parrayc
# and the runtime targets: from find_package(Parray) or add_subdirectory of
# the parrayc sources.
#
# parray_enable_cuda is a macro, called where enable_language may be (a
# CMakeLists.txt, not a function): it finds nvcc (CUDACXX, PATH or
# /usr/local/cuda), sets CMAKE_CUDA_ARCHITECTURES to the runtime's
# (Parray_CUDA_ARCHITECTURES, or ARCHITECTURES) unless the project set it,
# enables CUDA and gives TARGETS those architectures.  With OPTIONAL it sets
# Parray_CUDA_ENABLED to FALSE where there is no nvcc instead of failing.
include_guard(GLOBAL)

# The back ends named by the #parray declarations of file and the Parray
# headers it includes (searched next to it, then in dirs): the fallback where
# no parrayc can be run at configure time.
function(_parray_backends_scan file dirs out)
  set(todo "${file}")
  set(seen "")
  set(words "")
  while(todo)
    list(POP_FRONT todo f)
    if(f IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${f}")
    file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*(parray|include)")
    get_filename_component(fdir "${f}" DIRECTORY)
    foreach(line IN LISTS lines)
      if(line MATCHES "#[ \t]*parray[ \t]*{[ \t]*(cuda|dmem|smem|mpi|omp|pthd)[ \t(]")
        list(APPEND words "${CMAKE_MATCH_1}")
      elseif(line MATCHES "#[ \t]*include[ \t]*\"([^\"]+\\.pah)\"")
        foreach(d IN LISTS fdir dirs)
          if(EXISTS "${d}/${CMAKE_MATCH_1}")
            list(APPEND todo "${d}/${CMAKE_MATCH_1}")
            set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${d}/${CMAKE_MATCH_1}")
            break()
          endif()
        endforeach()
      endif()
    endforeach()
  endwhile()
  if(words MATCHES "dmem|smem")
    list(APPEND words cuda)
  endif()
  list(REMOVE_DUPLICATES words)
  set(${out} "${words}" PARENT_SCOPE)
endfunction()

# The back ends of file as parrayc says (cuda mpi omp pthd), with -I dirs
# and the -D flags dflags; the headers it includes become configure
# dependencies.
function(_parray_backends file dirs dflags out)
  set(exe "")
  if(TARGET Parray::parrayc)
    get_target_property(imported Parray::parrayc IMPORTED)
    if(imported)
      get_target_property(exe Parray::parrayc LOCATION)
    endif()
  endif()
  if(NOT exe OR NOT EXISTS "${exe}")
    _parray_backends_scan("${file}" "${dirs}" words)
    set(${out} "${words}" PARENT_SCOPE)
    set(${out}_KNOWN FALSE PARENT_SCOPE)
    return()
  endif()
  list(REMOVE_ITEM dirs "")
  list(TRANSFORM dirs PREPEND "-I" OUTPUT_VARIABLE iflags)
  execute_process(COMMAND "${exe}" --print-backends ${iflags} ${dflags} "${file}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE words ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    # a program with errors: the build reports them; choose as the #parray
    # lines say (said once, at the end of the directory: at the call a
    # header may be missing only until the target's directories are set)
    if(NOT _PARRAY_EARLY)
      message(STATUS "parray_add_sources: parrayc --print-backends ${file} failed; "
                     "the #parray lines decide C or CUDA until it translates")
    endif()
    _parray_backends_scan("${file}" "${dirs}" words)
    set(${out} "${words}" PARENT_SCOPE)
    set(${out}_KNOWN FALSE PARENT_SCOPE)
    return()
  endif()
  string(STRIP "${words}" words)
  separate_arguments(words UNIX_COMMAND "${words}")
  execute_process(COMMAND "${exe}" -M -MF - ${iflags} ${dflags} "${file}" RESULT_VARIABLE rc OUTPUT_VARIABLE rule)
  if(rc EQUAL 0)
    string(REGEX REPLACE "^[^:]*:" "" rule "${rule}")
    string(REPLACE "\\\n" " " rule "${rule}")
    separate_arguments(deps UNIX_COMMAND "${rule}")
    foreach(d IN LISTS deps)
      get_filename_component(d "${d}" ABSOLUTE)
      if(EXISTS "${d}")
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${d}")
      endif()
    endforeach()
  endif()
  set(${out} "${words}" PARENT_SCOPE)
  set(${out}_KNOWN TRUE PARENT_SCOPE)
endfunction()

# A target's include directories and compile definitions as they stand,
# without generator expressions ($<BUILD_INTERFACE:x> gives x; others are
# dropped): its own and the interface ones of the targets it links.  For
# --print-backends at configure time; the build passes parrayc the whole
# properties, generator expressions evaluated.
function(_parray_target_flags target out_dirs out_defs)
  get_target_property(dirs ${target} INCLUDE_DIRECTORIES)
  get_target_property(defs ${target} COMPILE_DEFINITIONS)
  foreach(v dirs defs)
    if(NOT ${v})
      set(${v} "")
    endif()
  endforeach()
  get_target_property(libs ${target} LINK_LIBRARIES)
  foreach(l IN LISTS libs)
    if(TARGET "${l}")
      get_target_property(ld "${l}" INTERFACE_INCLUDE_DIRECTORIES)
      get_target_property(lf "${l}" INTERFACE_COMPILE_DEFINITIONS)
      if(ld)
        list(APPEND dirs ${ld})
      endif()
      if(lf)
        list(APPEND defs ${lf})
      endif()
    endif()
  endforeach()
  foreach(v dirs defs)
    set(res "")
    foreach(x IN LISTS ${v})
      if(x MATCHES "^\\$<BUILD_INTERFACE:(.*)>$")
        set(x "${CMAKE_MATCH_1}")
      endif()
      if(x MATCHES "\\$<" OR x STREQUAL "" OR (v STREQUAL "dirs" AND NOT IS_ABSOLUTE "${x}"))
        continue()
      endif()
      list(APPEND res "${x}")
    endforeach()
    list(REMOVE_DUPLICATES res)
    set(${v} "${res}")
  endforeach()
  set(${out_dirs} "${dirs}" PARENT_SCOPE)
  set(${out_defs} "${defs}" PARENT_SCOPE)
endfunction()

# The language of the translation of name (C or CUDA; language, when
# given, decides) and the runtime targets it links, for its back ends; an
# error, starting with where, when one is missing.
function(_parray_runtimes where name backends language out_lang out_libs)
  set(lang C)
  if("cuda" IN_LIST backends)
    set(lang CUDA)
  endif()
  if(language)
    set(lang ${language})
  endif()
  set(libs Parray::parray)
  if(lang STREQUAL "CUDA")
    if(NOT CMAKE_CUDA_COMPILER_LOADED)
      message(FATAL_ERROR "${where}: ${name} uses CUDA (parrayc --print-backends: ${backends}) "
                          "but CUDA is not enabled: call parray_enable_cuda() (or enable_language(CUDA)) "
                          "before, in the same CMakeLists.txt")
    endif()
    if(NOT TARGET Parray::cuda)
      message(FATAL_ERROR "${where}: ${name} uses CUDA but this Parray has no CUDA runtime "
                          "(find_package(Parray COMPONENTS cuda))")
    endif()
    list(APPEND libs Parray::cuda)
  endif()
  if("mpi" IN_LIST backends AND NOT TARGET Parray::mpi)
    message(FATAL_ERROR "${where}: ${name} uses MPI but Parray::mpi is missing "
                        "(find_package(Parray COMPONENTS mpi): no MPI here, or a Parray built without it)")
  elseif("mpi" IN_LIST backends)
    list(APPEND libs Parray::mpi)
  endif()
  if("omp" IN_LIST backends)
    if(NOT TARGET OpenMP::OpenMP_C)
      find_package(OpenMP REQUIRED COMPONENTS C)
    endif()
    list(APPEND libs OpenMP::OpenMP_C)
  endif()
  set(${out_lang} ${lang} PARENT_SCOPE)
  set(${out_libs} ${libs} PARENT_SCOPE)
endfunction()

# The directory whose end the translation waits for: the target's own when
# it is this one or one that adds it (still being read), so the target's
# properties set there after this call count and the custom command lives
# where the target does; else this one.
function(_parray_home_dir target out)
  get_target_property(tdir ${target} SOURCE_DIR)
  set(d "${CMAKE_CURRENT_SOURCE_DIR}")
  while(d)
    if(d STREQUAL tdir)
      set(${out} "${tdir}" PARENT_SCOPE)
      return()
    endif()
    get_directory_property(d DIRECTORY "${d}" PARENT_DIRECTORY)
  endwhile()
  set(${out} "${CMAKE_CURRENT_SOURCE_DIR}" PARENT_SCOPE)
endfunction()

# parray_add_sources(TARGET src.pa... [INCLUDE_DIRECTORIES dir...]
#                    [OPTIONS opt...] [LANGUAGE C|CUDA])
# What can be checked now is checked now, so an error names the caller's
# line; the translation is set up at the end of the target's directory
# (_parray_add_source_now), when its include directories and definitions
# are known.
function(parray_add_sources target)
  if(NOT TARGET Parray::parrayc)
    message(FATAL_ERROR "parray_add_sources: no Parray::parrayc (find_package(Parray) first)")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "parray_add_sources: no target '${target}'")
  endif()
  get_target_property(aliased ${target} ALIASED_TARGET)
  if(aliased)
    set(target "${aliased}")
  endif()
  get_target_property(imported ${target} IMPORTED)
  get_target_property(type ${target} TYPE)
  if(imported)
    set(type "an imported target")
  endif()
  if(imported OR type MATCHES "^(INTERFACE_LIBRARY|UTILITY)$")
    message(FATAL_ERROR "parray_add_sources: '${target}' is ${type}: "
                        "translations go into a target that compiles sources")
  endif()
  cmake_parse_arguments(PA "" "LANGUAGE" "INCLUDE_DIRECTORIES;OPTIONS" ${ARGN})
  if(PA_LANGUAGE AND NOT PA_LANGUAGE MATCHES "^(C|CUDA)$")
    message(FATAL_ERROR "parray_add_sources: LANGUAGE ${PA_LANGUAGE}: C or CUDA")
  endif()
  if(NOT PA_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "parray_add_sources: no .pa file for target '${target}'")
  endif()
  set(dirs "")
  foreach(d IN LISTS PA_INCLUDE_DIRECTORIES)
    get_filename_component(d "${d}" ABSOLUTE)
    list(APPEND dirs "${d}")
  endforeach()
  _parray_home_dir(${target} home)
  _parray_target_flags(${target} tdirs_now tdefs_now)
  list(TRANSFORM tdefs_now PREPEND "-D" OUTPUT_VARIABLE dflags_now)
  get_target_property(done ${target} _PARRAY_SOURCES)
  if(NOT done)
    set(done "")
  endif()
  foreach(src IN LISTS PA_UNPARSED_ARGUMENTS)
    get_filename_component(abs "${src}" ABSOLUTE)
    get_source_file_property(generated "${abs}" GENERATED)
    if(NOT EXISTS "${abs}" AND NOT generated)
      message(FATAL_ERROR "parray_add_sources: no file '${src}' (${abs})")
    endif()
    if(IS_DIRECTORY "${abs}")
      message(FATAL_ERROR "parray_add_sources: '${src}' is a directory, not a .pa file")
    endif()
    if(abs IN_LIST done)
      message(FATAL_ERROR "parray_add_sources: '${src}' is already a source of target '${target}'")
    endif()
    list(APPEND done "${abs}")
    # a back end this project lacks is an error here where parrayc can
    # tell already (the end of the directory asks again)
    set(backends "")
    set(backends_KNOWN FALSE)
    if(EXISTS "${abs}")
      set(_PARRAY_EARLY TRUE)
      _parray_backends("${abs}" "${dirs};${tdirs_now}" "${dflags_now}" backends)
      unset(_PARRAY_EARLY)
    endif()
    if(backends_KNOWN OR PA_LANGUAGE)
      if(NOT backends_KNOWN)
        set(backends "")
      endif()
      get_filename_component(name "${abs}" NAME)
      _parray_runtimes(parray_add_sources "${name}" "${backends}" "${PA_LANGUAGE}" lang libs)
    endif()
    # one translation per target and file, named after the file's path in
    # this directory: one .pa in several targets, or a.pa in two folders,
    # are distinct outputs
    file(RELATIVE_PATH rel "${CMAKE_CURRENT_SOURCE_DIR}" "${abs}")
    string(REPLACE "../" "__/" rel "${rel}")
    set(base "${CMAKE_CURRENT_BINARY_DIR}/parray/${target}/${rel}")
    get_property(n GLOBAL PROPERTY _PARRAY_NCALLS)
    math(EXPR n "0${n} + 1")
    set_property(GLOBAL PROPERTY _PARRAY_NCALLS ${n})
    set_property(GLOBAL PROPERTY _PARRAY_CALL_${n}
                 "${abs}" "${base}" "${PA_LANGUAGE}" "${CMAKE_CURRENT_LIST_FILE}")
    set_property(GLOBAL PROPERTY _PARRAY_CALL_${n}_DIRS "${dirs}")
    set_property(GLOBAL PROPERTY _PARRAY_CALL_${n}_OPTIONS "${PA_OPTIONS}")
    # (DEFER CALL evaluates its arguments when the call runs: pass them as text)
    cmake_language(EVAL CODE
      "cmake_language(DEFER DIRECTORY [==[${home}]==] CALL _parray_add_source_now [==[${target}]==] ${n})")
  endforeach()
  set_property(TARGET ${target} PROPERTY _PARRAY_SOURCES "${done}")
endfunction()

# Translation number call of parray_add_sources, at the end of the target's
# directory (or the caller's).
function(_parray_add_source_now target call)
  get_property(args GLOBAL PROPERTY _PARRAY_CALL_${call})
  get_property(dirs GLOBAL PROPERTY _PARRAY_CALL_${call}_DIRS)
  get_property(options GLOBAL PROPERTY _PARRAY_CALL_${call}_OPTIONS)
  list(GET args 0 abs)
  list(GET args 1 base)
  list(GET args 2 language)
  list(GET args 3 caller)
  get_filename_component(name "${abs}" NAME)
  get_filename_component(srcdir "${abs}" DIRECTORY)
  set(where "parray_add_sources(${target} ${name}) in ${caller}")
  list(TRANSFORM dirs PREPEND "-I" OUTPUT_VARIABLE iflags)
  _parray_target_flags(${target} tdirs_now tdefs_now)
  list(TRANSFORM tdefs_now PREPEND "-D" OUTPUT_VARIABLE dflags_now)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${abs}")
  _parray_backends("${abs}" "${dirs};${tdirs_now}" "${dflags_now}" backends)
  _parray_runtimes("${where}" "${name}" "${backends}" "${language}" lang libs)
  if(lang STREQUAL "CUDA")
    set(out "${base}.cu")
  else()
    set(out "${base}.c")
  endif()
  get_filename_component(outdir "${out}" DIRECTORY)
  file(MAKE_DIRECTORY "${outdir}")
  # the target's definitions and include directories as the build sees
  # them (generator expressions evaluated), one -D or -I per item
  set(tdirs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(tdefs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  file(RELATIVE_PATH shown "${CMAKE_BINARY_DIR}" "${out}")
  add_custom_command(OUTPUT "${out}"
    COMMAND Parray::parrayc ${iflags} "$<$<BOOL:${tdirs}>:-I$<JOIN:${tdirs},;-I>>"
            "$<$<BOOL:${tdefs}>:-D$<JOIN:${tdefs},;-D>>"
            ${options} -MD -MF "${out}.d" -MQ "${out}" "${abs}" -o "${out}"
    DEPENDS "${abs}" Parray::parrayc
    DEPFILE "${out}.d"
    COMMENT "Translating Parray ${shown}"
    COMMAND_EXPAND_LISTS VERBATIM)
  # (the program's own #include "x.h": next to the .pa file)
  set_source_files_properties("${out}" TARGET_DIRECTORY ${target} PROPERTIES LANGUAGE ${lang} GENERATED TRUE)
  set_property(SOURCE "${out}" TARGET_DIRECTORY ${target} APPEND PROPERTY INCLUDE_DIRECTORIES "${srcdir}" ${dirs})
  get_target_property(tdir ${target} SOURCE_DIR)
  if(NOT tdir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    # a target of a directory read already: the rule lives here, in a
    # target that one waits for (make runs a directory's rules only)
    string(MAKE_C_IDENTIFIER "parray_${target}_${call}" step)
    add_custom_target(${step} DEPENDS "${out}")
    add_dependencies(${target} ${step})
  endif()
  target_sources(${target} PRIVATE "${out}")
  target_link_libraries(${target} PRIVATE ${libs})
endfunction()

macro(parray_enable_cuda)
  cmake_parse_arguments(_PA_CUDA "OPTIONAL" "" "TARGETS;ARCHITECTURES" ${ARGN})
  if(NOT CMAKE_CUDA_COMPILER_LOADED)
    if(NOT DEFINED ENV{CUDACXX} AND NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
      set(ENV{CUDACXX} /usr/local/cuda/bin/nvcc)
    endif()
    include(CheckLanguage)
    check_language(CUDA)
  endif()
  if(CMAKE_CUDA_COMPILER)
    if(_PA_CUDA_ARCHITECTURES)
      set(_pa_cuda_arch ${_PA_CUDA_ARCHITECTURES})
    elseif(DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(_pa_cuda_arch ${CMAKE_CUDA_ARCHITECTURES})
    elseif(Parray_CUDA_ARCHITECTURES)
      set(_pa_cuda_arch ${Parray_CUDA_ARCHITECTURES})
    else()
      set(_pa_cuda_arch 90)
    endif()
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES ${_pa_cuda_arch})
    endif()
    enable_language(CUDA)
    foreach(_pa_t IN LISTS _PA_CUDA_TARGETS)
      set_property(TARGET ${_pa_t} PROPERTY CUDA_ARCHITECTURES ${_pa_cuda_arch})
    endforeach()
    set(Parray_CUDA_ENABLED TRUE)
  elseif(_PA_CUDA_OPTIONAL)
    set(Parray_CUDA_ENABLED FALSE)
  else()
    message(FATAL_ERROR "parray_enable_cuda: no CUDA compiler (set CUDACXX or put nvcc on PATH)")
  endif()
endmacro()

function(parray_add_executable name)
  cmake_parse_arguments(PA "" "LANGUAGE" "INCLUDE_DIRECTORIES;OPTIONS" ${ARGN})
  set(pa "")
  set(other "")
  foreach(src IN LISTS PA_UNPARSED_ARGUMENTS)
    if(src MATCHES "\\.pa$")
      list(APPEND pa "${src}")
    else()
      list(APPEND other "${src}")
    endif()
  endforeach()
  add_executable(${name} ${other})
  set(args "")
  if(PA_LANGUAGE)
    list(APPEND args LANGUAGE ${PA_LANGUAGE})
  endif()
  if(PA_INCLUDE_DIRECTORIES)
    list(APPEND args INCLUDE_DIRECTORIES ${PA_INCLUDE_DIRECTORIES})
  endif()
  if(PA_OPTIONS)
    list(APPEND args OPTIONS ${PA_OPTIONS})
  endif()
  parray_add_sources(${name} ${pa} ${args})
endfunction()
