#include <ptsuite/results/attestation.hpp>

#include <nlohmann/json.hpp>

#include <ptsuite/results/json_read.hpp>

namespace ptsuite::results {

std::optional<AttestationRecord> read_attestation(const nlohmann::json& document) {
  const nlohmann::json& a = at(document, "attestation");
  if (!a.is_object()) return std::nullopt;
  return AttestationRecord{str(a, "algorithm"), str(a, "key_fingerprint"), str(a, "signed_utc"), str(a, "tested_by"),
                           str(a, "signature_file")};
}

nlohmann::json attestation_json(const AttestationRecord& a) {
  return {{"algorithm", a.algorithm},
          {"key_fingerprint", a.key_fingerprint},
          {"signed_utc", a.signed_utc},
          {"tested_by", a.tested_by},
          {"signature_file", a.signature_file}};
}

void attach_attestation(nlohmann::json& document, const AttestationRecord& a) {
  document["attestation"] = attestation_json(a);
}

}  // namespace ptsuite::results
