// Package input holds the rules every write's input must meet, shared by
// the API (JSON bodies, server) and the console (HTML forms, console), so
// both refuse the same input with the same message on the same field. A
// refusal is a *apperr.Error with code ERR_VALIDATION and Fields keyed by
// the API's JSON field names, which are also the console's form field
// names.
package input
