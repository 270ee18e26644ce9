#include "util/interrupt_notice.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace kopt {

namespace {

char notice[512];
size_t notice_length = 0;
struct sigaction previous_int, previous_term;

void on_signal(int signal) {
  (void)!::write(STDERR_FILENO, notice, notice_length);
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

}  // namespace

InterruptNotice::InterruptNotice(const std::string& line) {
  const std::string text = "\n" + line + "\n";
  notice_length = std::min(text.size(), sizeof notice);
  std::memcpy(notice, text.data(), notice_length);
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, &previous_int);
  ::sigaction(SIGTERM, &action, &previous_term);
}

InterruptNotice::~InterruptNotice() {
  ::sigaction(SIGINT, &previous_int, nullptr);
  ::sigaction(SIGTERM, &previous_term, nullptr);
}

}  // namespace kopt
