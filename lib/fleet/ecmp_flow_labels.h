/* How many flow labels a destination needs so that probes with them cross
 * every ECMP branch towards it with high probability: R-Pingmesh's
 * (SIGCOMM 2024) coupon-collector sizing. A switch hashes each flow (on
 * RoCE v2 the UDP source port a flow label maps to) onto one of W equal
 * branches; taken as uniform and independent per label, n labels miss no
 * branch with the probability of collecting all W coupons in n draws. */
#ifndef IBAHPROBE_ECMP_FLOW_LABELS_H
#define IBAHPROBE_ECMP_FLOW_LABELS_H

#include <stdint.h>

/* Ranges the command checks. The labels are probe sets: probe takes at
 * most 4096 of them. */
#define ECMP_WIDTH_MAX 256u
#define ECMP_WIDTH_DEFAULT 4u
#define ECMP_CONFIDENCE_DEFAULT 0.99
#define ECMP_FLOW_LABELS_MAX 4096u

/* P(every one of width branches is hit by labels labels), each label on a
 * branch drawn uniformly and independently; 0 for width 0, -1 when out
 * of memory. */
double ecmp_cover_probability(uint32_t width, uint32_t labels);

/* The fewest labels n with ecmp_cover_probability(width, n) >= confidence
 * (0 < confidence < 1); 0 when more than ECMP_FLOW_LABELS_MAX would be
 * needed (or memory ran out). */
uint32_t ecmp_flow_labels_needed(uint32_t width, double confidence);

#endif
