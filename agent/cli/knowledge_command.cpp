#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "agent/cli/commands.h"
#include "tools/knowledge/knowledge_tool.h"
#include "tools/knowledge/tokenizer.h"
#include "util/json.h"

namespace kopt::cli {

namespace {

// The words of a query given as one quoted argument or as several.
std::string query_of(const Args& args) {
  std::string query = args.get("QUERY");
  for (auto& c : query)
    if (c == '\n') c = ' ';
  if (tokenize(query).empty()) throw UsageError{"the query has no searchable words"};
  return query;
}

std::optional<std::string> target_of(const Args& args) {
  if (!args.has("target")) return std::nullopt;
  const std::string target = args.get("target");
  if (target != "cpu" && target != "cuda")
    throw UsageError{"--target must be cpu or cuda, not '" + target + "'"};
  return target;
}

int run_knowledge(const Args& args) {
  const std::string query = query_of(args);
  const std::optional<std::string> target = target_of(args);
  const long k = args.get_int("k", 1, 1000);
  const auto dir =
      args.has("dir") ? std::filesystem::path(args.get("dir")) : default_knowledge_dir();
  Result<KnowledgeBase> base = KnowledgeBase::load(dir);
  if (!base) {
    std::fprintf(stderr, "kopt knowledge: %s\n", base.error().message.c_str());
    return 1;
  }
  const std::vector<Hit> hits = base->search(query, static_cast<size_t>(k), target);
  if (args.flag("json")) {
    Json out = Json::array();
    for (const Hit& hit : hits)
      out.push_back({{"id", hit.id},
                     {"title", hit.title},
                     {"score", hit.score},
                     {"applies_to", hit.applies_to}});
    fmt::print("{}\n", dump_json(out, 2));
    return 0;
  }
  if (hits.empty()) {
    std::fprintf(stderr, "kopt knowledge: no note matches '%s'\n", query.c_str());
    return 1;
  }
  const long words = args.flag("full") ? 0 : args.get_int("words", 0, 1000000);
  fmt::print("{}", format_hits(hits, static_cast<size_t>(words), static_cast<size_t>(words)));
  return 0;
}

}  // namespace

CommandSpec knowledge_command() {
  return {"knowledge",
          "Search the technique notes the way the model's search_knowledge tool does",
          {{"QUERY", "Symptom, compiler remark or technique (one or more words)", "", false, true,
            "", true},
           {"--target", "Only notes for cpu or cuda", "", false, false, ""},
           {"-k", "How many notes to show", "3", false, false, ""},
           {"--words", "Cut each note's body to about this many words", "300", false, false, ""},
           {"--full", "Show whole notes", "", true, false, ""},
           {"--json", "Print ids, titles and scores as JSON", "", true, false, ""},
           {"--dir", "Folder of notes (default: kopt's prompts/knowledge)", "", false, false,
            "KOPT_KNOWLEDGE_DIR"}},
          run_knowledge};
}

}  // namespace kopt::cli
