# Finds ptsuite's dependencies, all from Debian 12 packages. No library source is copied into
# this tree; when something is missing the error names the Debian package that provides it.
#
#   library          Debian package        used for
#   libaio           libaio-dev            the libaio IO engine
#   liburing         liburing-dev          the io_uring IO engines
#   fmt              libfmt-dev            formatting
#   spdlog           libspdlog-dev         run logs
#   nlohmann_json    nlohmann-json3-dev    results.json and every other JSON file
#   CLI11            libcli11-dev          the command line
#   OpenSSL crypto   libssl-dev            SHA-256 and Ed25519 bundle signatures (libcrypto, EVP API)
#   SQLite3          libsqlite3-dev        the embedded results history database
#   libpq            libpq-dev             the results history on a PostgreSQL server
#   cpp-httplib      libcpp-httplib-dev    `ptsuite serve` (its HTTP server)
#   GTest            libgtest-dev          the test suite (only with PTSUITE_BUILD_TESTS)

function(ptsuite_require_package name debian_package)
  find_package(${name} ${ARGN} QUIET)
  if(NOT ${name}_FOUND)
    message(FATAL_ERROR
      "ptsuite needs ${name}. On Debian/Ubuntu install it with:\n"
      "    apt-get install ${debian_package}\n"
      "(the README's set-up commands install every dependency at once)")
  endif()
endfunction()

set(THREADS_PREFER_PTHREAD_FLAG ON)
find_package(Threads REQUIRED)
ptsuite_require_package(fmt libfmt-dev)
ptsuite_require_package(spdlog libspdlog-dev)
ptsuite_require_package(nlohmann_json nlohmann-json3-dev)
ptsuite_require_package(CLI11 libcli11-dev)
ptsuite_require_package(OpenSSL libssl-dev 3.0 COMPONENTS Crypto)
ptsuite_require_package(SQLite3 libsqlite3-dev)

# libpq: its headers live in /usr/include/postgresql on Debian; CMake's FindPostgreSQL also
# wants server headers, so look for the client library directly.
find_path(PTSUITE_PQ_INCLUDE_DIR libpq-fe.h PATH_SUFFIXES postgresql)
find_library(PTSUITE_PQ_LIBRARY NAMES pq)
if(NOT PTSUITE_PQ_INCLUDE_DIR OR NOT PTSUITE_PQ_LIBRARY)
  message(FATAL_ERROR
    "ptsuite needs libpq (the PostgreSQL client, for `--db postgresql://...`). On Debian/Ubuntu install it with:\n"
    "    apt-get install libpq-dev")
endif()
add_library(ptsuite::pq UNKNOWN IMPORTED)
set_target_properties(ptsuite::pq PROPERTIES
  IMPORTED_LOCATION ${PTSUITE_PQ_LIBRARY}
  INTERFACE_INCLUDE_DIRECTORIES ${PTSUITE_PQ_INCLUDE_DIR})

# cpp-httplib: Debian builds it as a shared library (libcpp-httplib.so from libcpp-httplib-dev,
# run time libcpp-httplib0.11); httplib.h then declares what the library defines. No CMake file:
# look for the header and the library. Required: `ptsuite serve` is a command of every build.
find_path(PTSUITE_HTTPLIB_INCLUDE_DIR httplib.h)
find_library(PTSUITE_HTTPLIB_LIBRARY NAMES cpp-httplib)
if(NOT PTSUITE_HTTPLIB_INCLUDE_DIR OR NOT PTSUITE_HTTPLIB_LIBRARY)
  message(FATAL_ERROR
    "ptsuite needs cpp-httplib (the HTTP server of `ptsuite serve`). On Debian/Ubuntu install it with:\n"
    "    apt-get install libcpp-httplib-dev")
endif()
add_library(ptsuite::httplib UNKNOWN IMPORTED)
set_target_properties(ptsuite::httplib PROPERTIES
  IMPORTED_LOCATION ${PTSUITE_HTTPLIB_LIBRARY}
  INTERFACE_INCLUDE_DIRECTORIES ${PTSUITE_HTTPLIB_INCLUDE_DIR})

# libaio ships no CMake or pkg-config file: look for the header and the library directly.
find_path(PTSUITE_AIO_INCLUDE_DIR libaio.h)
find_library(PTSUITE_AIO_LIBRARY NAMES aio)
if(NOT PTSUITE_AIO_INCLUDE_DIR OR NOT PTSUITE_AIO_LIBRARY)
  message(FATAL_ERROR
    "ptsuite needs libaio (the default IO engine). On Debian/Ubuntu install it with:\n"
    "    apt-get install libaio-dev")
endif()
add_library(ptsuite::aio UNKNOWN IMPORTED)
set_target_properties(ptsuite::aio PROPERTIES
  IMPORTED_LOCATION ${PTSUITE_AIO_LIBRARY}
  INTERFACE_INCLUDE_DIRECTORIES ${PTSUITE_AIO_INCLUDE_DIR})

# liburing ships a pkg-config file, but pkg-config itself is not installed on a fresh machine:
# look for the header and the library directly, as for libaio.
find_path(PTSUITE_URING_INCLUDE_DIR liburing.h)
find_library(PTSUITE_URING_LIBRARY NAMES uring)
if(NOT PTSUITE_URING_INCLUDE_DIR OR NOT PTSUITE_URING_LIBRARY)
  message(FATAL_ERROR
    "ptsuite needs liburing (the io_uring IO engines). On Debian/Ubuntu install it with:\n"
    "    apt-get install liburing-dev")
endif()
add_library(ptsuite::uring UNKNOWN IMPORTED)
set_target_properties(ptsuite::uring PROPERTIES
  IMPORTED_LOCATION ${PTSUITE_URING_LIBRARY}
  INTERFACE_INCLUDE_DIRECTORIES ${PTSUITE_URING_INCLUDE_DIR})

if(PTSUITE_BUILD_TESTS)
  ptsuite_require_package(GTest libgtest-dev)
endif()
