#include "support/page_geometry.hpp"

#include <nlohmann/json.hpp>

#include <stdexcept>

#include <ptsuite/report/pdf.hpp>
#include <ptsuite/util/output_file.hpp>

#include "support/temp_dir.hpp"
#include "support/test_files.hpp"

namespace ptsuite::test_support {

namespace {

// Runs after layout (at the end of <body>); writes its findings as JSON into <pre id="geometry">.
constexpr const char* k_script = R"JS(<script>
(function () {
  const out = [];
  for (const page of document.querySelectorAll('section.page')) {
    const pr = page.getBoundingClientRect();
    const content = page.querySelector('.content');
    const cr = content.getBoundingClientRect();
    const over = [];
    for (const el of content.querySelectorAll('figure, table, tr, svg, .blk, figcaption, p, li')) {
      const r = el.getBoundingClientRect();
      if (r.bottom > cr.bottom + 0.5) over.push(el.tagName + ' bottom ' + r.bottom + ' > ' + cr.bottom);
      if (r.right > pr.right + 0.5) over.push(el.tagName + ' right ' + r.right + ' > ' + pr.right);
    }
    const charts = [];
    for (const svg of content.querySelectorAll('svg.ptsuite-chart')) {
      charts.push([svg.getBoundingClientRect().height, parseFloat(svg.getAttribute('height'))]);
    }
    const rows = [];
    for (const tr of content.querySelectorAll('tbody tr')) {
      const c = tr.cells;
      rows.push([...c].map(x => x.textContent).join('|'));
    }
    const captions = [...content.querySelectorAll('figcaption')].map(f => f.textContent);
    out.push({id: page.id, title: page.querySelector('h2.page-title').textContent,
              scroll: content.scrollHeight, client: content.clientHeight, over: over, charts: charts,
              rows: rows, captions: captions});
  }
  const pre = document.createElement('pre');
  pre.id = 'geometry';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
)JS";

}  // namespace

std::vector<PageGeometry> measure_pages(const std::string& html) {
  std::string doc = html;
  const size_t body = doc.rfind("</body>");
  if (body == std::string::npos) throw std::runtime_error("no </body> in the report");
  doc.insert(body, k_script);
  ShmTempDir dir;
  const std::string path = dir.file("report.html");
  test_support::write_file(path, doc);
  const std::string dom = report::dump_dom(path, 1000, 1400);
  const std::string open = "<pre id=\"geometry\">";
  const size_t from = dom.find(open);
  const size_t to = dom.find("</pre>", from);
  if (from == std::string::npos || to == std::string::npos) throw std::runtime_error("the script wrote no geometry");
  std::string text = dom.substr(from + open.size(), to - from - open.size());
  // The DOM dump escapes &, < and > in text.
  for (const auto& [entity, c] : {std::pair{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}}) {
    for (size_t p = text.find(entity); p != std::string::npos; p = text.find(entity, p + 1)) {
      text.replace(p, std::string(entity).size(), c);
    }
  }
  std::vector<PageGeometry> out;
  for (const nlohmann::json& p : nlohmann::json::parse(text)) {
    PageGeometry g;
    g.id = p.at("id");
    g.title = p.at("title");
    g.content_scroll_px = p.at("scroll");
    g.content_client_px = p.at("client");
    g.overflowing = p.at("over").get<std::vector<std::string>>();
    for (const nlohmann::json& c : p.at("charts")) g.chart_heights.emplace_back(c[0].get<double>(), c[1].get<double>());
    g.rows = p.at("rows").get<std::vector<std::string>>();
    g.captions = p.at("captions").get<std::vector<std::string>>();
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace ptsuite::test_support
