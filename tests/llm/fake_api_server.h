// A loopback HTTP server for the LLM tests that speaks like the OpenAI or Anthropic API as each
// test scripts it: canned or computed replies, streamed in chunks cut anywhere, delayed,
// stalled, or cut off. It records what it received.
#pragma once

#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "agent/llm/retry.h"

namespace kopt::llm::testing {

/// One request as the server saw it.
struct Received {
  std::string method;
  std::string path;
  std::map<std::string, std::string> headers;
  std::string body;
};

/// One scripted reply.
struct Reply {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers{};
  /// Streamed in these pieces (chunked) instead of `body`.
  std::vector<std::string> chunks{};
  std::chrono::milliseconds delay_before{0};       ///< Before anything is sent.
  std::chrono::milliseconds delay_between{0};      ///< Between chunks.
  std::chrono::milliseconds stall_after_first{0};  ///< After the first chunk only.
  bool cut = false;  ///< Drop the connection after the chunks, without ending the body.
};

/// A Sleeper that only records how long it was asked to wait.
class RecordingSleeper : public Sleeper {
 public:
  void sleep(std::chrono::milliseconds duration) override { waits.push_back(duration); }
  std::vector<std::chrono::milliseconds> waits;
};

/// Splits text into pieces of `size` bytes (cutting UTF-8 sequences and lines anywhere).
inline std::vector<std::string> split_every(const std::string& text, size_t size) {
  std::vector<std::string> pieces;
  for (size_t at = 0; at < text.size(); at += size) pieces.push_back(text.substr(at, size));
  return pieces;
}

/// The server; it listens from construction to destruction.
class FakeApiServer {
 public:
  using Handler = std::function<Reply(const Received&)>;

  FakeApiServer() {
    auto handle = [this](const httplib::Request& request, httplib::Response& response) {
      serve(request, response);
    };
    server_.Get(".*", handle);
    server_.Post(".*", handle);
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

  ~FakeApiServer() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    server_.stop();
    thread_.join();
  }

  /// "http://127.0.0.1:PORT"
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  /// Replies served in order, before the handler is asked.
  void enqueue(Reply reply) {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(reply));
  }
  /// Computes replies once the queue is empty.
  void set_handler(Handler handler) {
    std::lock_guard<std::mutex> lock(mutex_);
    handler_ = std::move(handler);
  }
  /// Every request so far.
  std::vector<Received> received() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return received_;
  }

 private:
  Reply next(const Received& request) {
    std::unique_lock<std::mutex> lock(mutex_);
    received_.push_back(request);
    if (!queue_.empty()) {
      Reply reply = std::move(queue_.front());
      queue_.pop_front();
      return reply;
    }
    Handler handler = handler_;
    lock.unlock();
    if (handler) return handler(request);
    return Reply{500, R"({"error":{"message":"no reply scripted"}})"};
  }

  // Sleeps unless the server is stopping; false when it is.
  bool pause(std::chrono::milliseconds duration) {
    std::unique_lock<std::mutex> lock(mutex_);
    return !wake_.wait_for(lock, duration, [this] { return stopping_; });
  }

  void serve(const httplib::Request& request, httplib::Response& response) {
    Received seen{request.method, request.path, {}, request.body};
    for (const auto& [name, value] : request.headers) seen.headers[name] = value;
    Reply reply = next(seen);
    if (reply.delay_before.count() > 0 && !pause(reply.delay_before)) return;
    response.status = reply.status;
    for (const auto& [name, value] : reply.headers) response.set_header(name, value);
    if (reply.chunks.empty()) {
      response.set_content(reply.body, reply.content_type.c_str());
      return;
    }
    response.set_chunked_content_provider(
        reply.content_type, [this, reply](size_t, httplib::DataSink& sink) {
          for (size_t i = 0; i < reply.chunks.size(); ++i) {
            if (!sink.write(reply.chunks[i].data(), reply.chunks[i].size())) return false;
            auto wait = i == 0 && reply.stall_after_first.count() > 0 ? reply.stall_after_first
                                                                      : reply.delay_between;
            if (wait.count() > 0 && !pause(wait)) return false;
          }
          if (reply.cut) return false;
          sink.done();
          return true;
        });
  }

  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::deque<Reply> queue_;
  Handler handler_;
  std::vector<Received> received_;
};

}  // namespace kopt::llm::testing
