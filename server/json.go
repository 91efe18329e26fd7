package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"
	"sync"

	"github.com/payoutd/payoutd/apperr"
)

// maxBody is the largest request body accepted: far above any real
// request, small enough that parsing one costs little.
const maxBody = 64 << 10

// readBody reads the whole body under the size limit and checks its media
// type when it is not empty.
func readBody(w http.ResponseWriter, r *http.Request, mediaType string) ([]byte, error) {
	// A compressed body would be refused as malformed JSON (misleading) or
	// read as plain text (wrong): say what is not supported instead.
	if ce := r.Header.Get("Content-Encoding"); ce != "" && !strings.EqualFold(strings.TrimSpace(ce), "identity") {
		return nil, apperr.Errorf(errUnsupportedType, "Content-Encoding %q is not supported: send the body uncompressed", ce)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, apperr.Errorf(errBodyTooLarge, "request body exceeds %d bytes", maxBody)
	}
	if err != nil {
		return nil, apperr.Errorf(apperr.ErrValidation, "could not read request body")
	}
	if len(bytes.TrimSpace(body)) > 0 && mediaType != "" {
		mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != mediaType {
			return nil, apperr.Errorf(errUnsupportedType, "Content-Type must be %s", mediaType)
		}
	}
	return body, nil
}

var knownFields sync.Map // reflect.Type → map[string]bool

func fieldsOf(t reflect.Type) map[string]bool {
	if m, ok := knownFields.Load(t); ok {
		return m.(map[string]bool)
	}
	m := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			m[name] = true
		}
	}
	knownFields.Store(t, m)
	return m
}

// readBodyJSON is what readJSON made of a request's body: the handler's
// decode and the Idempotency-Key's hash both use it, so the body is read
// once.
type readBodyJSON struct {
	done bool
	r    *jsonReader
	v    jsonValue
	err  error
}

// read is c.body read by readJSON, the first time it is asked for.
func (c *call) read() (*jsonReader, jsonValue, error) {
	j := &c.json
	if !j.done {
		j.r, j.v, j.err = readJSON(c.body)
		j.done = true
	}
	return j.r, j.v, j.err
}

// decode is decodeJSON of the call's body.
func (c *call) decode(dst any) error {
	if blank(c.body) {
		return fieldError("body", "a JSON object is required")
	}
	r, v, err := c.read()
	return decodeRead(c.body, r, v, err, dst)
}

// decodeOptional decodes the body into dst when there is one: routes whose
// body is optional (or must be empty) treat whitespace as no body, and
// anything else must be a valid object of dst's fields ({} for none).
func (c *call) decodeOptional(dst any) error {
	if blank(c.body) {
		return nil
	}
	return c.decode(dst)
}

// noBody refuses a body on routes that take none, while accepting {}.
func (c *call) noBody() error { return c.decodeOptional(&struct{}{}) }

// blank is a body of whitespace only (bytes.TrimSpace's), which is no body.
func blank(body []byte) bool { return len(bytes.TrimSpace(body)) == 0 }

// decodeJSON parses body into dst (a pointer to a struct): one JSON object,
// no unknown fields, no trailing data, numbers kept exact as json.Number.
// What readers could take differently is refused first (readJSON, as for
// canonicalJSON: a key given twice at any depth, a lone surrogate escape,
// invalid UTF-8, which encoding/json would silently replace by U+FFFD),
// and so is any string or key textProblem refuses. The body is read into
// its tree once for all of these; encoding/json then fills dst.
func decodeJSON(body []byte, dst any) error {
	if blank(body) {
		return fieldError("body", "a JSON object is required")
	}
	r, tree, err := readJSON(body)
	return decodeRead(body, r, tree, err, dst)
}

// decodeRead is decodeJSON on what readJSON made of body.
func decodeRead(body []byte, r *jsonReader, tree jsonValue, err error, dst any) error {
	var problem *jsonProblem
	if errors.As(err, &problem) {
		return fieldError(problem.path, problem.msg)
	}
	if err != nil || tree.kind != '{' || r.deepest > maxJSONDepth {
		return fieldError("body", "must be a single JSON object")
	}
	known := fieldsOf(reflect.TypeOf(dst).Elem())
	unknown := map[string]string{}
	for _, m := range tree.object {
		if !known[m.key] {
			unknown[m.key] = "unknown field"
		}
	}
	if len(unknown) > 0 {
		return validationError(unknown)
	}
	for _, m := range tree.object {
		if err := checkStrings(&jsonPath{key: m.key, index: -1}, m.val); err != nil {
			return err
		}
	}
	if err := decodeOne(body, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return fieldError(te.Field, "must be a "+jsonKind(te.Type))
		}
		if f, ft := failingField(body, reflect.TypeOf(dst).Elem()); f != "" {
			if ft == reflect.TypeOf(json.Number("")) {
				return fieldError(f, "must be a "+jsonKind(ft))
			}
			return fieldError(f, "has the wrong type or format")
		}
		return fieldError("body", "malformed JSON")
	}
	return nil
}

// decodeOne decodes exactly one JSON value and refuses trailing data.
func decodeOne(body []byte, dst any) error {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if err := d.Decode(dst); err != nil {
		return err
	}
	if _, err := d.Token(); err != io.EOF {
		return errors.New("trailing data after JSON value")
	}
	return nil
}

func jsonKind(t reflect.Type) string {
	if t == reflect.TypeOf(json.Number("")) {
		return "decimal: a string such as \"250.00\" or a JSON number"
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "number"
	default:
		return "valid value"
	}
}

// failingField finds the first field whose value does not decode into its
// struct field (and that field's type), so errors the decoder reports without
// a field still name one. It runs only for a body already refused.
func failingField(body []byte, t reflect.Type) (string, reflect.Type) {
	var raw map[string]json.RawMessage
	if decodeOne(body, &raw) != nil {
		return "", nil
	}
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		v, ok := raw[name]
		if !ok {
			continue
		}
		if err := decodeOne(v, reflect.New(t.Field(i).Type).Interface()); err != nil {
			return name, t.Field(i).Type
		}
	}
	return "", nil
}

// marshalBody is the exact bytes a JSON response carries.
func marshalBody(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// writeJSON encodes v with the status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := marshalBody(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":{"code":"ERR_INTERNAL","message":"internal error"}}`+"\n")
	}
	writeRaw(w, status, b)
}

// writeRaw writes b exactly; idempotent replays depend on it.
func writeRaw(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}
