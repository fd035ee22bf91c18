# Debian's hardening, as its own packages are built: the flags dpkg-buildflags
# gives with hardening=+all (stack protector, _FORTIFY_SOURCE, format checks,
# PIE, full RELRO with immediate binding), asked of dpkg-buildflags itself so
# that they follow Debian's choices, with _FORTIFY_SOURCE at level 3 (below).
# The build type keeps choosing the optimisation and the debug information;
# CMakeLists.txt maps the paths.
# tests/package_test.sh checks the packed program with hardening-check.
option(IDEM_HARDEN "Build with Debian's hardening flags (dpkg-buildflags, hardening=+all)" ON)
if(NOT IDEM_HARDEN)
    return()
endif()
find_program(IDEM_DPKG_BUILDFLAGS dpkg-buildflags)
if(NOT IDEM_DPKG_BUILDFLAGS)
    message(WARNING "dpkg-buildflags not found (package dpkg-dev): building without Debian's "
                    "hardening flags")
    return()
endif()
foreach(kind CPPFLAGS CXXFLAGS LDFLAGS)
    execute_process(
        COMMAND ${CMAKE_COMMAND} -E env DEB_BUILD_MAINT_OPTIONS=hardening=+all
                ${IDEM_DPKG_BUILDFLAGS} --get ${kind}
        OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE
        COMMAND_ERROR_IS_FATAL ANY)
    separate_arguments(flags UNIX_COMMAND "${flags}")
    list(FILTER flags EXCLUDE REGEX "^-(O|g|ffile-prefix-map=|fdebug-prefix-map=)")
    # _FORTIFY_SOURCE=2 checks only the buffers whose size is known when
    # compiling, and no call in this program has one: nothing would be
    # checked. Level 3 (Debian 13's choice; GCC 12 and glibc 2.34 on) also
    # checks sizes known when running, which turns this program's memcpy and
    # memset into checked calls.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12)
        list(TRANSFORM flags REPLACE "^-D_FORTIFY_SOURCE=2$" "-D_FORTIFY_SOURCE=3")
    endif()
    if(kind STREQUAL "LDFLAGS")
        add_link_options(${flags})
    else()
        add_compile_options(${flags})
    endif()
    list(APPEND hardening ${flags})
endforeach()
list(JOIN hardening " " hardening)
message(STATUS "Debian hardening (dpkg-buildflags, hardening=+all): ${hardening}")
