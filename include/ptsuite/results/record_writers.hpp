// Contract: the writers of the run header's parts (results/run_header.hpp) and of a whole test
// record (results/test_record.hpp): each record as results.json stores it, read back by those
// headers' readers (a record read and written again is byte for byte the same,
// tests/unit/results/records_test.cpp). pts builds its records typed and writes them through
// these (pts/test_procedure.hpp, pts/run.cpp) and never spells a member name.
// Presence follows what pts writes:
//   config       "strict_preflight" only when true, "claims" and "claims_path" only with a
//                sheet, "labels", "asset_serial" and "mode" only when set
//   run          "boot_id", "finished_utc", "mode", "journal", "stop", "sources" only when set
//   target       "scratch" null when ""
//   device       as results/run_header.hpp's DeviceRecord says
//   platform     "" and nullopt as null (but the ptsuite version, its revision, the PCI address)
//   spec         with ptsuite's fixed "units"
//   test record  always the header's fixed members, "parameters", "omitted", "max_queue_depth"
//                and the four shared lists ("toio" null when none); "status", the times and the
//                boot ID when non-empty; "write_cache", "ar_segments", the verdict
//                (has_compliance), "applied_workload" when held; the block under block_key.
// The rvalue writers release the records' owned sub-documents (results/embedded.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <ptsuite/results/run_header.hpp>
#include <ptsuite/results/test_record.hpp>

namespace ptsuite::results {

void to_json(nlohmann::json& j, const ToolRecord& t);
void to_json(nlohmann::json& j, const SpecRecord& s);
void to_json(nlohmann::json& j, const RunConfigRecord& c);
void to_json(nlohmann::json& j, const RunRecord& r);
void to_json(nlohmann::json& j, const TargetRecord& t);
void to_json(nlohmann::json& j, const DeviceRecord& d);    // results/device_record.cpp
void to_json(nlohmann::json& j, const PlatformRecord& p);  // results/device_record.cpp
void to_json(nlohmann::json& j, const PlanRecord& p);
void to_json(nlohmann::json& j, const SettingRecord& s);
void to_json(nlohmann::json& j, const ConventionRecord& c);
void to_json(nlohmann::json& j, const WriteCacheState& s);
void to_json(nlohmann::json& j, const WriteCacheRecord& r);
void to_json(nlohmann::json& j, const PreflightFinding& f);
void to_json(nlohmann::json& j, const PreflightSession& s);

void to_json(nlohmann::json& j, const SpecValue& v);
void to_json(nlohmann::json& j, const ToioRecord& t);
void to_json(nlohmann::json& j, const ParameterRecord& p);
void to_json(nlohmann::json& j, const OmittedEntry& o);
void to_json(nlohmann::json& j, const ArSegments& a);
// to_json(TestRecord) is declared in test_record.hpp, beside the type.
// write_block() (test_record.hpp) for a block being released.
nlohmann::json write_block(TestBlock&& block);

}  // namespace ptsuite::results
