// Contract: the run header of a results document (results.json, results schema top level and
// its "#/$defs/tool", "spec", "run_config", "run", "target", "device_identity", "platform",
// "setting_record", "convention", "write_cache_record", "preflight_session"), typed: who wrote
// it, the spec revision and profile, the configuration as given, the run's sessions and status,
// the target and the device's identity, the platform, the plan estimate, the health summary,
// every named setting and fixed convention, the run-wide write-cache record, the host
// preflight sessions and the signature's attestation. read_run_header() is tolerant like every
// results reader (results/json_read.hpp): a member a document lacks (an older or newer writer,
// an interrupted run) reads as "" / 0 / false / nullopt / empty, never throws. Nullable text
// fields of the schema read as "" when null (the report shows a dash either way); where null
// and a value differ in meaning the field is an std::optional.
// Values the schema leaves open (a setting's value and default, a convention's value: any JSON
// type) stay JSON values; everything else is a plain field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptsuite/results/attestation.hpp>
#include <ptsuite/results/run_sessions.hpp>
#include <ptsuite/results/simulation.hpp>
#include <ptsuite/util/labels.hpp>

namespace ptsuite::results {

struct ToolRecord {
  std::string name;
  std::string version;
  std::string git_revision;
};

struct SpecRecord {
  std::string revision;  // "2.0.2", "e1.1"
  std::string title;
  std::string profile;  // "enterprise", "client"
  std::string profile_title;
};

struct SettingOverride {
  std::string name;
  nlohmann::json value;  // as typed on the command line
};

struct RunConfigRecord {
  std::vector<std::string> tests;
  std::string revision;
  std::string profile;
  std::vector<std::string> presets;
  std::vector<SettingOverride> overrides;
  std::string target;  // "" = a scratch target
  uint64_t scratch_size_bytes = 0;
  std::string out_dir;
  uint64_t seed = 0;
  std::string engine;
  bool allow_destructive = false;
  std::optional<std::string> confirm_serial;
  bool strict = false;
  bool strict_preflight = false;
  std::vector<std::string> report_formats;
  std::vector<std::string> command_line;
  std::string tested_by;  // "" when not given
  nlohmann::json claims;  // `ptsuite validate`: the spec sheet; null otherwise
  std::string claims_path;
  std::string mode;  // "from-runs" for a from-runs validation, else ""
  Labels labels;     // --label key=value; empty when none
  std::string asset_serial;
};

struct JournalCounts {
  uint64_t steps = 0;
  uint64_t replayed_this_session = 0;
  uint64_t executed_this_session = 0;
};

// A run a from-runs validation judged.
struct SourceRun {
  std::string dir;
  std::string results_sha256;
  std::string serial;
  uint64_t tests = 0;
};

struct RunRecord {
  std::string run_uid;   // drawn at the start; "" in documents of earlier versions
  std::string host;      // where the run started; "" in documents of earlier versions
  RunSessions sessions;  // started_utc, boot_id, resumes
  std::string finished_utc;
  // The run's duration on its own clock, every session summed (pts/run.cpp): the steady clock on
  // a real drive, the virtual clock on a simulated one; never a difference of the UTC stamps
  // (a wall-clock step moves them). Absent in documents of earlier versions.
  std::optional<uint64_t> duration_ns;
  std::string status;  // "running", "complete", "interrupted", "io_error", "failed"
  std::string plan_fingerprint;
  std::string mode;  // "validate-from-runs" or ""
  std::optional<JournalCounts> journal;
  std::optional<std::string> stop_reason;  // why the run ended early
  std::vector<SourceRun> sources;
};

struct TargetRecord {
  std::string path;
  std::string kind;     // "block_device", "regular_file"
  std::string scratch;  // what ptsuite created; "" when the target was given
  uint64_t capacity_bytes = 0;
  uint64_t logical_block_bytes = 0;
  uint64_t physical_block_bytes = 0;
};

struct LbaFormatRecord {
  uint64_t index = 0;
  uint64_t data_bytes = 0;
  uint64_t metadata_bytes = 0;
  uint64_t relative_performance = 0;
};

struct NvmeIdentity {
  uint64_t nsid = 0;
  std::optional<LbaFormatRecord> lba_format_in_use;
  std::vector<LbaFormatRecord> lba_formats;
  uint64_t protection_type = 0;
  std::optional<uint64_t> warning_temperature_kelvin;
  std::optional<uint64_t> critical_temperature_kelvin;
};

struct QueueSettings {
  std::string scheduler;
  std::optional<uint64_t> nr_requests;
  std::optional<uint64_t> max_sectors_kb;
  std::optional<uint64_t> max_hw_sectors_kb;
  std::optional<uint64_t> discard_max_bytes;
  std::string write_cache;
};

struct LoopBacking {
  std::string backing_file;
  std::optional<bool> direct_io;
  std::optional<uint64_t> offset_bytes;
};

struct AtaSecurityRecord {
  bool supported = false;
  bool enabled = false;
  bool locked = false;
  bool frozen = false;
  bool count_expired = false;
  bool enhanced_erase_supported = false;
  uint64_t erase_minutes = 0;
  uint64_t enhanced_erase_minutes = 0;
};

struct ZramBacking {
  std::string compression_algorithm;
  std::optional<uint64_t> disksize_bytes;
};

struct FileBacking {
  std::string filesystem;   // "" = unknown (null)
  std::string mount_point;  // "" = unknown (null)
};

// The "device" member of a results document (and the identity a journal, a scenario run and
// a replay record): the writer spells "" as null for the text members the schema allows null
// (kernel_name, device_path, vendor, model, serial, firmware, identifier, pci_address, the
// queue's scheduler and write_cache, a file's filesystem and mount point), leaves out medium
// and asset_serial when "", and writes nvme / ata_security / queue / loop / zram / file only
// when held.
struct DeviceRecord {
  std::string path;
  std::string canonical_path;
  std::string kernel_name;
  std::string device_path;
  std::string transport;  // "nvme", "ata", "scsi", "virtio", "loop", "zram", "file", "other"
  std::string source;     // where the identity came from
  std::string vendor;
  std::string model;
  std::string serial;
  std::string firmware;
  std::string identifier;
  std::string medium;
  std::string asset_serial;  // the serial a lab gave a device that reports none
  uint64_t capacity_bytes = 0;
  uint64_t logical_block_bytes = 0;
  uint64_t physical_block_bytes = 0;
  std::optional<bool> rotational;
  bool is_partition = false;
  bool real_drive = false;
  std::optional<bool> write_cache_present;
  std::optional<bool> write_cache_enabled;
  // Each purge capability by its schema name ("nvme_format", ...), in document order;
  // nullopt where the device could not say (null).
  std::vector<std::pair<std::string, std::optional<bool>>> purge_capabilities;
  std::optional<NvmeIdentity> nvme;
  std::optional<AtaSecurityRecord> ata_security;
  std::optional<QueueSettings> queue;
  std::optional<LoopBacking> loop;
  std::optional<ZramBacking> zram;
  std::optional<FileBacking> file;
  std::string pci_address;
  std::vector<std::string> notes;
};

struct PcieLink {
  std::string pci_address;
  std::string current_link_speed;
  std::string max_link_speed;
  std::optional<uint64_t> current_link_width;
  std::optional<uint64_t> max_link_width;
};

struct PlatformRecord {
  std::string cpu_model;
  std::optional<uint64_t> cpu_count;
  std::optional<uint64_t> memory_bytes;
  std::string kernel_release;
  std::string kernel_version;
  std::string machine;
  std::string distribution;
  std::string ptsuite_version;
  std::string ptsuite_git_revision;
  std::string device;
  std::optional<PcieLink> pcie;
  std::string io_scheduler;
  std::optional<int64_t> numa_node;
};

struct PlanRecord {
  uint64_t best_case_ns = 0;
  uint64_t worst_case_ns = 0;
};

struct ThrottleSummary {
  bool throttled = false;
  uint64_t snapshots = 0;
  std::optional<double> max_temperature_celsius;
  std::vector<std::string> events;
};

struct SettingRecord {
  std::string name;  // as --set takes it: "iops.segment_duration"
  std::string type;
  std::string description;
  nlohmann::json default_value;
  nlohmann::json value;
  bool changed = false;
  std::string changed_by;  // "", "preset:<id>", "--set"
  std::string clause;
  std::string tag;
  std::string source;
  std::string path;
  bool time_scaling = false;
  bool operator_choice = false;
};

struct ConventionRecord {
  std::string path;
  nlohmann::json value;
  std::string clause;
  std::string tag;
  std::string source;
  std::string convention;
};

struct WriteCacheState {
  bool applicable = false;
  std::optional<bool> enabled;
  std::string mechanism;
  std::string note;
};

struct WriteCacheRecord {
  bool requested_enabled = false;
  WriteCacheState original;
  WriteCacheState applied;
  std::optional<WriteCacheState> restored;
  std::vector<std::string> messages;
};

struct PreflightFinding {
  std::string check;
  std::string severity;  // "info", "warning", "error"
  std::string message;
};

struct PreflightSession {
  std::string session;  // "start", "resume"
  std::string checked_utc;
  std::string target;
  bool strict = false;
  uint64_t warnings = 0;
  uint64_t errors = 0;
  std::vector<PreflightFinding> findings;
};

struct RunHeader {
  uint64_t schema_version = 0;
  std::string kind;
  ToolRecord tool;
  SpecRecord spec;
  RunConfigRecord config;
  RunRecord run;
  TargetRecord target;
  DeviceRecord device;
  PlatformRecord platform;
  std::optional<PlanRecord> plan;
  std::optional<ThrottleSummary> health;
  std::vector<SettingRecord> settings;
  std::vector<ConventionRecord> conventions;
  std::optional<WriteCacheRecord> write_cache;
  std::vector<PreflightSession> preflight;
  bool preflight_recorded = false;  // the document has a preflight list (runs before it have none)
  std::optional<AttestationRecord> attestation;
  std::optional<SimulationRecord> simulation;  // a run on a simulated drive (results/simulation.hpp)
};

RunConfigRecord read_run_config(const nlohmann::json& j);
DeviceRecord read_device_record(const nlohmann::json& j);  // results/device_record.cpp
PlatformRecord read_platform_record(const nlohmann::json& j);
WriteCacheState read_write_cache_state(const nlohmann::json& j);
std::optional<WriteCacheRecord> read_write_cache_record(const nlohmann::json& j);  // nullopt unless an object
RunHeader read_run_header(const nlohmann::json& results);

}  // namespace ptsuite::results
