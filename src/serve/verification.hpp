// Private: a run page's verification status: the run directory's manifest and signature when
// the directory is on this host (bundle::verify_manifest, bundle::check_signature against the
// key in the signature file), else the bundle stored in the history (each file against its
// SHA-256, the manifest against its self-checksum and the files it lists, the signature
// statement against the manifest's bytes).
#pragma once

#include <ptsuite/history/run_record.hpp>
#include <ptsuite/serve/catalog.hpp>

#include "page.hpp"

namespace ptsuite::serve::detail {

DataTable verification_table(Catalog& catalog, const history::RunRecord& run);

}  // namespace ptsuite::serve::detail
