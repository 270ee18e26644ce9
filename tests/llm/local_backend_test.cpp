// The local backend and its server process, with fake_llama_server.py standing in for
// llama-server; the real model is local_model_e2e_test.cpp's business.
#include "agent/llm/local_backend.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "agent/llm/backend_factory.h"
#include "tests/llm/contract_scenario.h"
#include "util/files.h"

namespace kopt::llm::testing {
namespace {

using std::chrono::milliseconds;

// True while a live (not zombie) process belongs to process group `group`.
bool group_alive(pid_t group) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    std::istringstream fields(line.substr(line.rfind(')') + 2));
    char state = 0;
    pid_t parent = 0, pgrp = 0;
    fields >> state >> parent >> pgrp;
    if (pgrp == group && state != 'Z') return true;
  }
  return false;
}

TEST(ServerProcessTest, RunsUntilStoppedAndTakesItsGroupAlong) {
  TempDir dir("kopt-server-");
  auto server = ServerProcess::start({{"sh", "-c", "echo started; sleep 60 & sleep 60"},
                                      {{"PATH", "/usr/bin:/bin"}},
                                      dir.path() / "log"});
  ASSERT_TRUE(server.ok()) << server.error().message;
  const pid_t pid = (*server)->pid();
  EXPECT_TRUE((*server)->running());
  std::this_thread::sleep_for(milliseconds(100));
  EXPECT_NE((*server)->output_tail().find("started"), std::string::npos);
  EXPECT_TRUE(group_alive(pid));
  (*server)->stop();
  EXPECT_FALSE((*server)->running());
  EXPECT_EQ((*server)->status(), "killed by SIGTERM");
  // No process of its group is left: the background sleep, killed with the group, may take a
  // moment to be gone from /proc on a loaded machine.
  bool alive = group_alive(pid);
  for (int i = 0; i < 200 && alive; ++i) {
    std::this_thread::sleep_for(milliseconds(10));
    alive = group_alive(pid);
  }
  EXPECT_FALSE(alive);
}

TEST(ServerProcessTest, ExitIsNoticed) {
  TempDir dir("kopt-server-");
  auto server = ServerProcess::start({{"sh", "-c", "echo bye; exit 3"}, {}, dir.path() / "log"});
  ASSERT_TRUE(server.ok());
  for (int i = 0; i < 200 && (*server)->running(); ++i)
    std::this_thread::sleep_for(milliseconds(10));
  EXPECT_EQ((*server)->status(), "exit status 3");
}

TEST(ServerProcessTest, MissingProgramIsAnError) {
  TempDir dir("kopt-server-");
  auto server = ServerProcess::start({{"/nonexistent/llama-server"}, {}, dir.path() / "log"});
  ASSERT_FALSE(server.ok());
  EXPECT_NE(server.error().message.find("No such file"), std::string::npos)
      << server.error().message;
}

TEST(FreePortTest, GivesALoopbackPort) {
  auto port = free_loopback_port();
  ASSERT_TRUE(port.ok());
  EXPECT_GT(*port, 0);
}

class LocalBackendTest : public ::testing::Test {
 protected:
  std::filesystem::path config(const json& server, bool tools = false) {
    EXPECT_TRUE(write_file(dir.path() / "model.gguf", "GGUF").ok());
    json file = {{"format", "kopt-local-model/1"}, {"server", server},
                 {"model_path", "model.gguf"},     {"model_name", "tiny"},
                 {"tool_calling", tools},          {"ready_timeout_s", 20}};
    EXPECT_TRUE(write_file(dir.path() / "local-model.json", file.dump()).ok());
    return dir.path() / "local-model.json";
  }
  json fake_server() {
    return {"python3", (test_dir() / "fake_llama_server.py").string(),
            "--model", "{model}",
            "--port",  "{port}"};
  }
  TempDir dir{"kopt-local-"};
};

TEST_F(LocalBackendTest, StartsWaitsForHealthChatsAndStops) {
  auto loaded = LocalModelConfig::load(config(fake_server()));
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  std::string url;
  {
    LocalBackend backend(*loaded, {});
    auto response = backend.chat(greeting_request());
    ASSERT_TRUE(response.ok()) << response.error().message;
    EXPECT_EQ(response->text, "local says: Say hello");
    EXPECT_EQ(response->model, "local:tiny");
    EXPECT_EQ(response->usage, (Usage{3, 4}));
    EXPECT_GE(backend.startup_seconds(), 0.3);
    EXPECT_EQ(backend.base_url().rfind("http://127.0.0.1:", 0), 0u);
    ASSERT_TRUE(backend.prepare().ok());  // Already running: no second start.
    EXPECT_EQ(backend.chat(greeting_request())->text, "local says: Say hello");
    url = backend.base_url();
  }
  CurlTransport transport;
  const HttpResponse after = transport.send({"GET", url + "/health", {}, ""}, {}, {});
  EXPECT_EQ(after.error, TransportError::connect) << "the server outlived its backend";
}

TEST_F(LocalBackendTest, ServerThatDiesWhileStartingShowsItsOutput) {
  auto loaded = LocalModelConfig::load(
      config({"sh", "-c", "echo 'error: unknown model architecture'; exit 1"}));
  ASSERT_TRUE(loaded.ok());
  LocalBackend backend(*loaded, {});
  auto status = backend.prepare();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("exited while starting (exit status 1)"), std::string::npos)
      << status.error().message;
  EXPECT_NE(status.error().message.find("unknown model architecture"), std::string::npos);
}

TEST_F(LocalBackendTest, PlaceholdersAreFilledIn) {
  auto loaded = LocalModelConfig::load(
      config({"srv", "-m", "{model}", "--port={port}", "-c", "{context}", "{host}"}));
  ASSERT_TRUE(loaded.ok());
  auto argv = loaded->server_argv(8123);
  EXPECT_EQ(argv[2], (dir.path() / "model.gguf").string());
  EXPECT_EQ(argv[3], "--port=8123");
  EXPECT_EQ(argv[5], "4096");
  EXPECT_EQ(argv[6], "127.0.0.1");
}

TEST_F(LocalBackendTest, MissingConfigSaysHowToInstall) {
  auto loaded = LocalModelConfig::load(dir.path() / "absent.json");
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().message.find("scripts/setup-local-model.sh"), std::string::npos);
  auto backend = make_backend(
      "local", {fixed_environment({{"KOPT_LOCAL_MODEL", (dir.path() / "absent.json").string()}})});
  ASSERT_FALSE(backend.ok());
  EXPECT_NE(backend.error().message.find("scripts/setup-local-model.sh"), std::string::npos);
}

TEST_F(LocalBackendTest, MissingModelFileIsNamed) {
  config(fake_server());
  std::filesystem::remove(dir.path() / "model.gguf");
  auto loaded = LocalModelConfig::load(dir.path() / "local-model.json");
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().message.find("model.gguf' not found"), std::string::npos);
}

TEST_F(LocalBackendTest, AServerBuiltForAnotherCpuIsRefused) {
  const auto file = config(fake_server());
  auto with_cpu = [&](const std::string& cpu) {
    json text = json::parse(*read_file(file));
    text["cpu"] = cpu;
    EXPECT_TRUE(write_file(file, text.dump()).ok());
    return LocalModelConfig::load(file, "AuthenticAMD|25|1|fpu sse avx avx2");
  };
  auto other = with_cpu("GenuineIntel|6|143|fpu sse avx avx2 avx512f amx_int8");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.error().message.find("built for another CPU (GenuineIntel|6)"), std::string::npos)
      << other.error().message;
  EXPECT_NE(other.error().message.find("scripts/setup-local-model.sh"), std::string::npos);
  EXPECT_TRUE(with_cpu("AuthenticAMD|25|1|fpu sse avx avx2").ok());
}

TEST_F(LocalBackendTest, WithoutToolCallingTheFactoryUsesTheTextConvention) {
  BackendOptions options;
  options.env = fixed_environment({{"KOPT_LOCAL_MODEL", config(fake_server(), false).string()}});
  auto backend = make_backend("local", options);
  ASSERT_TRUE(backend.ok()) << backend.error().message;
  EXPECT_FALSE((*backend)->native_tools());
  EXPECT_EQ((*backend)->name(), "local:tiny");
}

}  // namespace
}  // namespace kopt::llm::testing
