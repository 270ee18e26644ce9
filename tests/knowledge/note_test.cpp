#include "tools/knowledge/note.h"

#include <gtest/gtest.h>

#include "util/files.h"

namespace kopt {

namespace {

const char* kGood =
    "---\n"
    "title: Loop interchange\n"
    "applies_to: [cpu, cuda]\n"
    "tags: [stride, \"loop order\"]\n"
    "---\n"
    "\n"
    "## When it applies\r\n"
    "The inner loop walks a column.\n";

bool mentions(const Error& error, const std::string& text) {
  return error.message.find(text) != std::string::npos;
}

}  // namespace

TEST(NoteTest, ParsesHeaderAndBody) {
  auto note = parse_note(kGood, "loop_interchange", "loop_interchange.md");
  ASSERT_TRUE(note) << note.error().message;
  EXPECT_EQ(note->id, "loop_interchange");
  EXPECT_EQ(note->title, "Loop interchange");
  EXPECT_EQ(note->applies_to, (std::vector<std::string>{"cpu", "cuda"}));
  EXPECT_EQ(note->tags, (std::vector<std::string>{"stride", "loop order"}));
  EXPECT_EQ(note->body, "## When it applies\nThe inner loop walks a column.");
  EXPECT_TRUE(note->applies("cuda"));
  EXPECT_FALSE(note->applies("gpu"));
}

TEST(NoteTest, MissingTitleNamesTheFile) {
  auto note = parse_note("---\napplies_to: [cpu]\n---\nbody\n", "x", "notes/untitled.md");
  ASSERT_FALSE(note);
  EXPECT_TRUE(mentions(note.error(), "notes/untitled.md")) << note.error().message;
  EXPECT_TRUE(mentions(note.error(), "no title")) << note.error().message;
}

TEST(NoteTest, MissingHeaderIsAnError) {
  auto note = parse_note("# Just markdown\n", "x", "plain.md");
  ASSERT_FALSE(note);
  EXPECT_TRUE(mentions(note.error(), "plain.md: a note must start with a '---' header line"));
}

TEST(NoteTest, UnclosedHeaderIsAnError) {
  auto note = parse_note("---\ntitle: T\napplies_to: [cpu]\nbody\n", "x", "open.md");
  ASSERT_FALSE(note);
  EXPECT_TRUE(mentions(note.error(), "open.md:4: expected 'key: value'")) << note.error().message;
}

TEST(NoteTest, UnknownKeyNamesItsLine) {
  auto note =
      parse_note("---\ntitle: T\ntittle: U\napplies_to: [cpu]\n---\nbody\n", "x", "typo.md");
  ASSERT_FALSE(note);
  EXPECT_TRUE(mentions(note.error(), "typo.md:3: unknown header key 'tittle'"))
      << note.error().message;
}

TEST(NoteTest, BadTargetAndEmptyBodyAreErrors) {
  auto gpu = parse_note("---\ntitle: T\napplies_to: [gpu]\n---\nbody\n", "x", "gpu.md");
  ASSERT_FALSE(gpu);
  EXPECT_TRUE(mentions(gpu.error(), "applies_to lists 'gpu'"));
  auto empty = parse_note("---\ntitle: T\napplies_to: cpu\n---\n\n", "x", "empty.md");
  ASSERT_FALSE(empty);
  EXPECT_TRUE(mentions(empty.error(), "empty.md: the note has no body"));
}

TEST(NoteTest, LoadSkipsReadmeAndSortsById) {
  TempDir dir("kopt-notes");
  ASSERT_TRUE(write_file(dir.path() / "zeta.md", kGood));
  ASSERT_TRUE(write_file(dir.path() / "alpha.md", kGood));
  ASSERT_TRUE(write_file(dir.path() / "README.md", "# not a note\n"));
  ASSERT_TRUE(write_file(dir.path() / "notes.txt", "ignored\n"));
  auto notes = load_notes(dir.path());
  ASSERT_TRUE(notes) << notes.error().message;
  ASSERT_EQ(notes->size(), 2u);
  EXPECT_EQ((*notes)[0].id, "alpha");
  EXPECT_EQ((*notes)[1].id, "zeta");
}

TEST(NoteTest, LoadReportsTheBadFile) {
  TempDir dir("kopt-notes");
  ASSERT_TRUE(write_file(dir.path() / "good.md", kGood));
  ASSERT_TRUE(write_file(dir.path() / "bad.md", "---\napplies_to: [cpu]\n---\nbody\n"));
  auto notes = load_notes(dir.path());
  ASSERT_FALSE(notes);
  EXPECT_TRUE(
      mentions(notes.error(), (dir.path() / "bad.md").string() + ": the header has no title"))
      << notes.error().message;
}

TEST(NoteTest, LoadFailsOnMissingOrEmptyFolder) {
  TempDir dir("kopt-notes");
  auto empty = load_notes(dir.path());
  ASSERT_FALSE(empty);
  EXPECT_TRUE(mentions(empty.error(), "holds no notes"));
  auto missing = load_notes(dir.path() / "absent");
  ASSERT_FALSE(missing);
  EXPECT_TRUE(mentions(missing.error(), "cannot read the knowledge folder"));
}

}  // namespace kopt
