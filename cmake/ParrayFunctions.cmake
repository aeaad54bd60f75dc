# ParrayFunctions.cmake: build Parray programs with CMake.
#
#   parray_add_sources(TARGET src.pa... [INCLUDE_DIRECTORIES dir...] [OPTIONS opt...]
#                      [LANGUAGE C|CUDA])
#   parray_add_executable(NAME src.pa... [other sources...] [same keywords])
#
# Each .pa file is translated by parrayc at build time (add_custom_command,
# with a DEPFILE that lists the Parray headers it includes, so editing one
# rebuilds it) into ${CMAKE_CURRENT_BINARY_DIR}/parray/NAME.pa.c, or .pa.cu
# when it declares cuda, dmem or smem arrays; the translation is added to
# TARGET, and TARGET links the runtime it needs: Parray::parray, Parray::cuda,
# Parray::mpi, OpenMP::OpenMP_C.  The back ends are read from the #parray
# declarations of the file and its .pah headers at configure time (CMake
# re-runs when they change); LANGUAGE overrides the choice of C or CUDA.
# parrayc gets -I for INCLUDE_DIRECTORIES and TARGET's include directories,
# then OPTIONS.  Needs Parray::parrayc and the runtime targets: from
# find_package(Parray) or add_subdirectory of the parrayc sources.
include_guard(GLOBAL)

# The back ends named by the #parray declarations of file and the Parray
# headers it includes (searched next to it, then in dirs).
function(_parray_backends file dirs out)
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
  list(REMOVE_DUPLICATES words)
  set(${out} "${words}" PARENT_SCOPE)
endfunction()

function(parray_add_sources target)
  cmake_parse_arguments(PA "" "LANGUAGE" "INCLUDE_DIRECTORIES;OPTIONS" ${ARGN})
  if(NOT TARGET Parray::parrayc)
    message(FATAL_ERROR "parray_add_sources: no Parray::parrayc (find_package(Parray) first)")
  endif()
  set(dirs "")
  foreach(d IN LISTS PA_INCLUDE_DIRECTORIES)
    get_filename_component(d "${d}" ABSOLUTE)
    list(APPEND dirs "${d}")
  endforeach()
  list(TRANSFORM dirs PREPEND "-I" OUTPUT_VARIABLE iflags)
  set(tdirs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(libs Parray::parray)
  file(MAKE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/parray")
  foreach(src IN LISTS PA_UNPARSED_ARGUMENTS)
    get_filename_component(abs "${src}" ABSOLUTE)
    get_filename_component(name "${src}" NAME)
    get_filename_component(srcdir "${abs}" DIRECTORY)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${abs}")
    _parray_backends("${abs}" "${dirs}" backends)
    set(lang C)
    if(backends MATCHES "cuda|dmem|smem")
      set(lang CUDA)
      list(APPEND libs Parray::cuda)
    endif()
    if(PA_LANGUAGE)
      set(lang ${PA_LANGUAGE})
    endif()
    if("mpi" IN_LIST backends)
      list(APPEND libs Parray::mpi)
    endif()
    if("omp" IN_LIST backends)
      if(NOT TARGET OpenMP::OpenMP_C)
        find_package(OpenMP REQUIRED COMPONENTS C)
      endif()
      list(APPEND libs OpenMP::OpenMP_C)
    endif()
    if(lang STREQUAL "CUDA")
      set(out "${CMAKE_CURRENT_BINARY_DIR}/parray/${name}.cu")
    else()
      set(out "${CMAKE_CURRENT_BINARY_DIR}/parray/${name}.c")
    endif()
    file(RELATIVE_PATH shown "${CMAKE_BINARY_DIR}" "${out}")
    add_custom_command(OUTPUT "${out}"
      COMMAND Parray::parrayc ${iflags} "$<$<BOOL:${tdirs}>:-I$<JOIN:${tdirs},;-I>>"
              ${PA_OPTIONS} -MD -MF "${out}.d" -MT "${out}" "${abs}" -o "${out}"
      DEPENDS "${abs}" Parray::parrayc
      DEPFILE "${out}.d"
      COMMENT "Translating Parray ${shown}"
      COMMAND_EXPAND_LISTS VERBATIM)
    set_source_files_properties("${out}" PROPERTIES LANGUAGE ${lang} GENERATED TRUE)
    # the program's own #include "x.h": next to the .pa file
    set_property(SOURCE "${out}" APPEND PROPERTY INCLUDE_DIRECTORIES "${srcdir}" ${dirs})
    target_sources(${target} PRIVATE "${out}")
  endforeach()
  list(REMOVE_DUPLICATES libs)
  target_link_libraries(${target} PRIVATE ${libs})
endfunction()

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
