// All-pairs cosine similarity of n embeddings of dimension d (emb is row-major n x d, no row
// is zero): sim[i * n + j] = dot(e_i, e_j) / (|e_i| * |e_j|) for every i and j. 1 <= d <= 1024,
// 1 <= n <= 2400 (size.max).
#pragma once

void cosine_similarity(const double* emb, long n, int d, double* sim);
