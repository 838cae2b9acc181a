// Thin entry point: everything lives in ptsuite_core (src/cli/ parses and dispatches).
#include <ptsuite/cli/cli.hpp>

int main(int argc, char** argv) { return ptsuite::cli::run(argc, argv); }
