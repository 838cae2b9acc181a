#include "support/xml_check.hpp"

#include <gtest/gtest.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <climits>
#include <memory>

namespace ptsuite::report::chart::testing {
namespace {

std::string text_of(const xmlChar* s) { return s == nullptr ? std::string() : reinterpret_cast<const char*>(s); }

bool blank(std::string_view s) { return s.find_first_not_of(" \t\r\n") == std::string_view::npos; }

void collect(const xmlNode* node, std::vector<XmlElement>& out) {
  for (const xmlNode* n = node; n != nullptr; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) {
      continue;
    }
    XmlElement e;
    e.name = text_of(n->name);
    for (const xmlAttr* a = n->properties; a != nullptr; a = a->next) {
      xmlChar* value = xmlNodeListGetString(n->doc, a->children, 1);
      e.attributes.emplace(text_of(a->name), text_of(value));
      xmlFree(value);
    }
    for (const xmlNode* c = n->children; c != nullptr; c = c->next) {
      if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
        const std::string t = text_of(c->content);
        e.text += blank(t) ? "" : t;
      }
    }
    out.push_back(std::move(e));
    collect(n->children, out);
  }
}

}  // namespace

XmlCheck check_xml(std::string_view doc) {
  XmlCheck out;
  if (doc.size() > INT_MAX) {
    out.ok = false;
    out.error = "document too large";
    return out;
  }
  xmlResetLastError();
  const std::unique_ptr<xmlDoc, void (*)(xmlDocPtr)> parsed(
      xmlReadMemory(doc.data(), static_cast<int>(doc.size()), "check.xml", nullptr,
                    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOBLANKS),
      xmlFreeDoc);
  if (!parsed) {
    const xmlError* e = xmlGetLastError();
    out.ok = false;
    out.error = e != nullptr
                    ? text_of(reinterpret_cast<const xmlChar*>(e->message)) + " at line " + std::to_string(e->line)
                    : "not well-formed";
    return out;
  }
  collect(xmlDocGetRootElement(parsed.get()), out.elements);
  return out;
}

XmlCheck checked(const std::string& svg) {
  XmlCheck check = check_xml(svg);
  EXPECT_TRUE(check.ok) << check.error;
  std::string bad;
  EXPECT_TRUE(geometry_is_finite(check, &bad)) << bad;
  return check;
}

}  // namespace ptsuite::report::chart::testing
