// Package money holds amounts as int64 minor units of a currency (paise for
// INR, cents for USD, yen for JPY) and converts between them and the exact
// decimal text that crosses the API. Nothing here uses floating point: a
// binary float cannot hold 0.1, and an amount that is off by a paisa is a
// reconciliation failure, not a rounding detail.
package money
