// Contract: who signed a bundle, as `ptsuite sign` records it in the document it signs
// ("attestation": algorithm, key fingerprint, signing time, tested-by, signature file; docs/bundle.md).
// Every kind of document that is a run's (results/document_kinds.def) may carry it; the reports
// name the key on their first page. read_attestation() reads a document's member (nullopt unless
// it is an object), tolerant like every results reader; attestation_json() writes it and
// attach_attestation() puts it in a document.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace ptsuite::results {

struct AttestationRecord {
  std::string algorithm;
  std::string key_fingerprint;
  std::string signed_utc;
  std::string tested_by;
  std::string signature_file;
};

std::optional<AttestationRecord> read_attestation(const nlohmann::json& document);
nlohmann::json attestation_json(const AttestationRecord& a);
// Records `a` as `document`'s "attestation" (replacing one that was there).
void attach_attestation(nlohmann::json& document, const AttestationRecord& a);

}  // namespace ptsuite::results
