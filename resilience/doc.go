// Package resilience holds no code: its tests prove, on the built binary,
// that payoutd keeps its promises when things go wrong. A server killed
// mid-pipeline loses nothing; a live payout is paid at most once across
// kills at the moments that matter, random kills, backups and restores;
// a database restored from a backup meets the chain through the
// operator's commands; a file bound to one network refuses another; and
// the live rail runs end to end against the fake network.
package resilience
