// For models without native tool calling (and for people): code and tool calls travel as
// fenced blocks in plain text. Tool calls are written
//   ```tool_call
//   {"name": "compile", "arguments": {"source": "..."}}
//   ```
// (<tool_call>{...}</tool_call>, which several open models emit, is read as well).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "agent/llm/backend.h"
#include "agent/llm/chat.h"
#include "util/result.h"

namespace kopt::llm {

/// A fenced block (``` or ~~~) of an answer.
struct CodeBlock {
  std::string language;  ///< First word of the info string, lower case ("cpp"), or "".
  std::string code;
  bool closed = true;  ///< False when the answer ended inside the block.
};

/// Every fenced block of `text`, in order.
std::vector<CodeBlock> find_code_blocks(const std::string& text);

/// The code of an answer: the longest closed block in one of `languages`, else the longest
/// closed block without a language. An Error says why there is none (no block, or a block cut
/// off, as when the answer hit max_tokens).
Result<std::string> extract_code(const std::string& text,
                                 const std::vector<std::string>& languages = {
                                     "cpp", "c++", "cxx", "cc", "c", "cuda", "cu"});

/// What a text answer says: its prose without the tool-call blocks, and the calls.
struct TextToolCalls {
  std::string text;
  std::vector<ToolCall> calls;
};

/// Reads tool calls written as text; ids are derived from the answer, so they are stable.
/// Given the offered tool names, it also accepts what small models write instead: a ```json
/// block, or a whole answer that is a bare {"name","arguments"} object, naming one of them.
TextToolCalls parse_text_tool_calls(const std::string& text,
                                    const std::vector<std::string>& offered = {});

/// A tool call as the text block a model would have written.
std::string render_tool_call(const ToolCall& call);

/// The system prompt addition that lists the tools and the convention to call them.
std::string describe_tools(const std::vector<ToolSchema>& tools, const std::string& tool_choice);

/// The request rewritten for a model without tools: tools described in the system prompt,
/// earlier calls as text blocks, tool results as user messages.
ChatRequest to_text_tools(const ChatRequest& request);

/// Wraps a backend whose model lacks native tool calling in the text convention above.
std::unique_ptr<LlmBackend> with_text_tools(std::unique_ptr<LlmBackend> inner);

}  // namespace kopt::llm
