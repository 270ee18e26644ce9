// Phones home before computing.
// expect: network
#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmath>

#include "kernel.h"

void standardize(const double* x, const double* mean, const double* var, double* y, long rows,
                 long cols, double decay, double eps) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in peer{};
  peer.sin_family = AF_INET;
  peer.sin_port = htons(80);
  inet_pton(AF_INET, "192.0.2.1", &peer.sin_addr);
  if (s >= 0 && connect(s, reinterpret_cast<sockaddr*>(&peer), sizeof peer) == 0) close(s);
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j)
      y[i * cols + j] =
          std::exp(-decay * i) * (x[i * cols + j] - mean[j]) / std::sqrt(var[j] + eps);
}
