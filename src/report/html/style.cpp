#include <ptsuite/report/html/style.hpp>

namespace ptsuite::report::html {

std::string report_css() {
  return R"CSS(@page { size: auto; margin: 10mm; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; padding: 12mm 0; background: #c9cdd3; color: #111;
  font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; font-size: 7.5pt; line-height: 1.25; }
.page { position: relative; width: 190mm; height: 257mm; margin: 0 auto 22mm auto; overflow: hidden;
  display: flex; flex-direction: column; background: #fff;
  box-shadow: 0 0 0 10mm #fff, 0 1mm 12mm 10mm rgba(0, 0, 0, 0.28); }
.page + .page { break-before: page; page-break-before: always; }
@media print {
  body { background: #fff; padding: 0; }
  .page { margin: 0; box-shadow: none; }
}
header.snia { flex: none; border: 0.4mm solid #1f3a5f; }
header.snia table { width: 100%; border-collapse: collapse; table-layout: fixed; }
.hd-top td { vertical-align: middle; padding: 1.2mm 2mm; }
.hd-top { background: #1f3a5f; color: #fff; }
.sim-banner { background: #b00020; color: #fff; font-weight: bold; text-align: center; padding: 1mm; letter-spacing: 0.05em; }
.hd-org { width: 24%; font-size: 6.5pt; }
.hd-org .org { font-weight: bold; font-size: 8pt; letter-spacing: 0.03em; }
.hd-title { width: 52%; text-align: center; }
.hd-title .t { font-size: 11pt; font-weight: bold; }
.hd-title .st { font-size: 8pt; }
.hd-title .dates { font-size: 6.5pt; opacity: 0.85; }
.hd-rev { width: 24%; text-align: right; font-size: 7pt; }
.hd-rev .pg { font-size: 8.5pt; font-weight: bold; margin-top: 0.6mm; }
.hd-who th, .hd-who td { padding: 0.8mm 1.5mm; border-bottom: 0.3mm solid #1f3a5f; font-size: 7.5pt;
  text-align: left; }
.hd-who th { width: 10%; background: #dfe6ef; white-space: nowrap; }
.hd-who td { width: 23.33%; font-weight: bold; }
.hd-cols th { background: #dfe6ef; font-size: 7pt; padding: 0.6mm 1.5mm; text-align: left;
  border-right: 0.3mm solid #1f3a5f; border-bottom: 0.3mm solid #1f3a5f; }
.hd-cols td { vertical-align: top; padding: 0.8mm 1.5mm; font-size: 6.2pt; line-height: 1.22;
  border-right: 0.3mm solid #1f3a5f; overflow-wrap: anywhere; }
.hd-cols th:last-child, .hd-cols td:last-child { border-right: none; }
.kv .k { color: #4a5563; }
.kv .v { color: #111; }
.bad { color: #b00020; font-weight: bold; }
.good { color: #1b6e20; font-weight: bold; }
.warn { color: #8a5a00; font-weight: bold; }
h2.page-title { flex: none; margin: 2mm 0 1.5mm 0; padding: 1mm 2mm; font-size: 10pt;
  background: #eef2f7; border-left: 1.5mm solid #1f3a5f; }
.content { flex: 1 1 auto; min-height: 0; overflow: hidden; display: flex; flex-direction: column;
  gap: 1.5mm; }
figure { margin: 0; }
figure.tbl, .blk { flex: none; }
/* A chart keeps its natural size (720 px wide = the page width) and shrinks, keeping its
   aspect ratio, when the page has less room: a page never overflows into a second sheet. */
figure.fig { flex: 0 1 auto; min-height: 0; display: flex; flex-direction: column; }
figure.fig svg.ptsuite-chart { flex: 0 1 auto; min-height: 0; width: auto; height: auto; max-width: 100%;
  align-self: center; }
figure.fig figcaption { flex: none; align-self: stretch; }
figcaption { font-size: 7pt; font-style: italic; color: #333; text-align: center; padding-top: 0.6mm;
  border-top: 0.2mm solid #c5ccd6; }
table.data { border-collapse: collapse; width: 100%; font-size: 7.5pt; }
table.data th, table.data td { border: 0.2mm solid #9aa5b4; padding: 0.6mm 1.4mm; }
table.data th { background: #dfe6ef; text-align: left; }
table.data .num { text-align: right; font-variant-numeric: tabular-nums; }
table.data tr.fail td { background: #fde8ea; }
table.data tr.pass td:first-child { border-left: 0.8mm solid #1b6e20; }
table.data tr.fail td:first-child { border-left: 0.8mm solid #b00020; }
table.data.compact { font-size: 6.8pt; }
table.data tr.step-first td { border-top: 0.45mm solid #1f3a5f; }
table.clauses th:nth-child(1) { width: 24%; }
table.clauses th:nth-child(2) { width: 15%; }
table.clauses th:nth-child(3) { width: 9%; }
table.data.compact th, table.data.compact td { padding: 0.4mm 1.1mm; }
table.kvt { border-collapse: collapse; width: 100%; font-size: 7.5pt; }
table.kvt th { text-align: left; width: 30%; color: #4a5563; font-weight: normal; padding: 0.4mm 1.5mm;
  vertical-align: top; }
table.kvt td { padding: 0.4mm 1.5mm; }
.verdict { border: 0.6mm solid; padding: 2mm 3mm; font-size: 15pt; font-weight: bold; text-align: center;
  letter-spacing: 0.04em; }
.verdict.bad { border-color: #b00020; background: #fde8ea; }
.verdict.good { border-color: #1b6e20; background: #e6f4e7; }
.verdict .why { font-size: 8pt; font-weight: normal; letter-spacing: 0; color: #111; margin-top: 1mm; }
.note { font-size: 7pt; color: #333; }
ul.reasons { margin: 0; padding-left: 4mm; font-size: 7pt; }
ul.reasons li { margin: 0.25mm 0; }
.st-pass { color: #1b6e20; font-weight: bold; }
.st-fail { color: #b00020; font-weight: bold; }
.st-disclosed { color: #8a5a00; font-weight: bold; }
.st-not_applicable { color: #6b7280; }
footer.page-foot { flex: none; display: flex; justify-content: space-between; margin-top: 1.5mm;
  padding-top: 0.8mm; border-top: 0.3mm solid #1f3a5f; font-size: 6.5pt; color: #333; }
footer.page-foot .pg { font-weight: bold; }
)CSS";
}

}  // namespace ptsuite::report::html
