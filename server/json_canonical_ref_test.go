package server

// The canonical reader as it was before it was made faster (commit 5121880),
// kept verbatim but for its names, so the differential tests can hold
// today's canonical bytes, request hashes and refusals to it.

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// refCanonicalJSON is body's canonical form. A body that is not one JSON value
// is errJSONSyntax; a duplicate key or lone surrogate is a *jsonProblem.
//
// The work is linear in the body however deep it nests: the value is read
// into a tree (scalars already in canonical form) and written out once,
// and a member's path is spelled out only for a problem.
func refCanonicalJSON(body []byte) ([]byte, error) {
	r, v, err := refReadJSON(body)
	if err != nil {
		return nil, err
	}
	return r.write(make([]byte, 0, len(r.scalars)+len(body)/2), v), nil
}

// refReadJSON reads body into its tree, with refCanonicalJSON's errors.
func refReadJSON(body []byte) (*refReader, refValue, error) {
	r := &refReader{in: body}
	r.space()
	v, err := r.value(nil, 0)
	if err != nil {
		return nil, v, err
	}
	r.space()
	if r.pos != len(r.in) {
		return nil, v, errJSONSyntax
	}
	return r, v, nil
}

type refReader struct {
	in  []byte
	pos int
	// scalars holds every string, number and literal in canonical form;
	// a refValue points into it.
	scalars []byte
	// deepest is the most objects and arrays read inside one another.
	deepest int
}

// refValue is one value read: a scalar at scalars[from:to] (a string's
// decoded text also in text), or an object (members sorted by key) or
// array.
type refValue struct {
	from, to int
	text     string
	object   []refMember
	array    []refValue
	kind     byte // '"' for a string, 's' for another scalar, '{' or '['
}

type refMember struct {
	key string
	val refValue
}

// refPath is where a value sits: a member key or an array index under
// its parent (nil at the top).
type refPath struct {
	up    *refPath
	key   string
	index int // -1 for a member key
}

// String names the value the way field errors do: key at the top,
// parent.key below it, parent[i] in an array; "" at the top.
func (p *refPath) String() string {
	var up []*refPath
	for ; p != nil; p = p.up {
		up = append(up, p)
	}
	var b strings.Builder
	for i := len(up) - 1; i >= 0; i-- {
		switch {
		case up[i].index >= 0:
			b.WriteString("[" + strconv.Itoa(up[i].index) + "]")
		case b.Len() > 0:
			b.WriteString("." + up[i].key)
		default:
			b.WriteString(up[i].key)
		}
	}
	return b.String()
}

func (r *refReader) space() {
	for r.pos < len(r.in) {
		switch r.in[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

func (r *refReader) value(path *refPath, depth int) (refValue, error) {
	if r.pos >= len(r.in) || depth > maxJSONDepth {
		return refValue{}, errJSONSyntax
	}
	from := len(r.scalars)
	scalar := func(err error) (refValue, error) {
		return refValue{kind: 's', from: from, to: len(r.scalars)}, err
	}
	switch c := r.in[r.pos]; {
	case c == '{':
		r.deepest = max(r.deepest, depth+1)
		return r.object(path, depth)
	case c == '[':
		r.deepest = max(r.deepest, depth+1)
		return r.array(path, depth)
	case c == '"':
		s, err := r.str(path)
		if err != nil {
			return refValue{}, err
		}
		r.scalars = refAppendString(r.scalars, s)
		return refValue{kind: '"', from: from, to: len(r.scalars), text: s}, nil
	case c == '-' || c >= '0' && c <= '9':
		return scalar(r.number())
	}
	for _, lit := range []string{"true", "false", "null"} {
		if strings.HasPrefix(string(r.in[r.pos:min(len(r.in), r.pos+5)]), lit) {
			r.pos += len(lit)
			r.scalars = append(r.scalars, lit...)
			return scalar(nil)
		}
	}
	return refValue{}, errJSONSyntax
}

func (r *refReader) object(path *refPath, depth int) (refValue, error) {
	r.pos++ // {
	v := refValue{kind: '{', object: []refMember{}}
	seen := map[string]bool{}
	r.space()
	if r.pos < len(r.in) && r.in[r.pos] == '}' {
		r.pos++
		return v, nil
	}
	for {
		r.space()
		if r.pos >= len(r.in) || r.in[r.pos] != '"' {
			return v, errJSONSyntax
		}
		key, err := r.str(path)
		if err != nil {
			return v, err
		}
		at := &refPath{up: path, key: key, index: -1}
		if seen[key] {
			return v, &jsonProblem{at.String(), "appears more than once in its object; send each key once"}
		}
		seen[key] = true
		r.space()
		if r.pos >= len(r.in) || r.in[r.pos] != ':' {
			return v, errJSONSyntax
		}
		r.pos++
		r.space()
		val, err := r.value(at, depth+1)
		if err != nil {
			return v, err
		}
		v.object = append(v.object, refMember{key, val})
		r.space()
		if r.pos >= len(r.in) {
			return v, errJSONSyntax
		}
		if r.in[r.pos] == '}' {
			r.pos++
			break
		}
		if r.in[r.pos] != ',' {
			return v, errJSONSyntax
		}
		r.pos++
	}
	slices.SortFunc(v.object, func(a, b refMember) int { return strings.Compare(a.key, b.key) })
	return v, nil
}

func (r *refReader) array(path *refPath, depth int) (refValue, error) {
	r.pos++ // [
	v := refValue{kind: '[', array: []refValue{}}
	r.space()
	if r.pos < len(r.in) && r.in[r.pos] == ']' {
		r.pos++
		return v, nil
	}
	for i := 0; ; i++ {
		r.space()
		el, err := r.value(&refPath{up: path, index: i}, depth+1)
		if err != nil {
			return v, err
		}
		v.array = append(v.array, el)
		r.space()
		if r.pos >= len(r.in) {
			return v, errJSONSyntax
		}
		if r.in[r.pos] == ']' {
			r.pos++
			return v, nil
		}
		if r.in[r.pos] != ',' {
			return v, errJSONSyntax
		}
		r.pos++
	}
}

// write appends v in canonical form: no whitespace, members in key order.
func (r *refReader) write(out []byte, v refValue) []byte {
	switch v.kind {
	case '{':
		out = append(out, '{')
		for i, m := range v.object {
			if i > 0 {
				out = append(out, ',')
			}
			out = refAppendString(out, m.key)
			out = append(out, ':')
			out = r.write(out, m.val)
		}
		return append(out, '}')
	case '[':
		out = append(out, '[')
		for i, el := range v.array {
			if i > 0 {
				out = append(out, ',')
			}
			out = r.write(out, el)
		}
		return append(out, ']')
	}
	return append(out, r.scalars[v.from:v.to]...)
}

// str reads a string literal and returns its value. Escapes are decoded;
// a \uD800–\uDFFF escape must be half of a surrogate pair.
func (r *refReader) str(path *refPath) (string, error) {
	r.pos++ // "
	var b strings.Builder
	for {
		if r.pos >= len(r.in) {
			return "", errJSONSyntax
		}
		c := r.in[r.pos]
		switch {
		case c == '"':
			r.pos++
			return b.String(), nil
		case c < 0x20:
			return "", errJSONSyntax
		case c == '\\':
			if err := r.escape(&b, path); err != nil {
				return "", err
			}
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			r.pos++
		default:
			ch, n := utf8.DecodeRune(r.in[r.pos:])
			if ch == utf8.RuneError && n == 1 {
				return "", &jsonProblem{refOrBody(path.String()), "must be valid UTF-8"}
			}
			b.WriteRune(ch)
			r.pos += n
		}
	}
}

func (r *refReader) escape(b *strings.Builder, path *refPath) error {
	if r.pos+1 >= len(r.in) {
		return errJSONSyntax
	}
	c := r.in[r.pos+1]
	r.pos += 2
	switch c {
	case '"', '\\', '/':
		b.WriteByte(c)
		return nil
	case 'b':
		b.WriteByte('\b')
		return nil
	case 'f':
		b.WriteByte('\f')
		return nil
	case 'n':
		b.WriteByte('\n')
		return nil
	case 'r':
		b.WriteByte('\r')
		return nil
	case 't':
		b.WriteByte('\t')
		return nil
	case 'u':
	default:
		return errJSONSyntax
	}
	u, ok := r.hex4()
	if !ok {
		return errJSONSyntax
	}
	lone := func() error {
		return &jsonProblem{refOrBody(path.String()), fmt.Sprintf("contains a lone surrogate escape \\u%04x; send the character itself or a complete surrogate pair", u)}
	}
	switch {
	case utf16.IsSurrogate(rune(u)) && u >= 0xDC00:
		return lone()
	case utf16.IsSurrogate(rune(u)):
		if r.pos+1 >= len(r.in) || r.in[r.pos] != '\\' || r.in[r.pos+1] != 'u' {
			return lone()
		}
		r.pos += 2
		low, ok := r.hex4()
		if !ok {
			return errJSONSyntax
		}
		ch := utf16.DecodeRune(rune(u), rune(low))
		if ch == utf8.RuneError {
			return lone()
		}
		b.WriteRune(ch)
	default:
		b.WriteRune(rune(u))
	}
	return nil
}

func (r *refReader) hex4() (uint16, bool) {
	if r.pos+4 > len(r.in) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(r.in[r.pos:r.pos+4]), 16, 16)
	if err != nil {
		return 0, false
	}
	r.pos += 4
	return uint16(v), true
}

// number reads a JSON number and writes its decimal value canonically:
// digits without leading or trailing zeros and a power of ten, so 250,
// 250.00 and 2.5e2 are all "25e1"; every zero is "0".
func (r *refReader) number() error {
	neg := r.in[r.pos] == '-'
	if neg {
		r.pos++
	}
	digits := func() string {
		s := r.pos
		for r.pos < len(r.in) && r.in[r.pos] >= '0' && r.in[r.pos] <= '9' {
			r.pos++
		}
		return string(r.in[s:r.pos])
	}
	intPart := digits()
	if intPart == "" || len(intPart) > 1 && intPart[0] == '0' {
		return errJSONSyntax
	}
	frac := ""
	if r.pos < len(r.in) && r.in[r.pos] == '.' {
		r.pos++
		if frac = digits(); frac == "" {
			return errJSONSyntax
		}
	}
	exp := new(big.Int)
	if r.pos < len(r.in) && (r.in[r.pos] == 'e' || r.in[r.pos] == 'E') {
		r.pos++
		sign := ""
		if r.pos < len(r.in) && (r.in[r.pos] == '+' || r.in[r.pos] == '-') {
			sign = string(r.in[r.pos])
			r.pos++
		}
		e := digits()
		if e == "" {
			return errJSONSyntax
		}
		exp.SetString(sign+e, 10)
	}
	mant := strings.TrimLeft(intPart+frac, "0")
	exp.Sub(exp, big.NewInt(int64(len(frac))))
	trimmed := strings.TrimRight(mant, "0")
	exp.Add(exp, big.NewInt(int64(len(mant)-len(trimmed))))
	if trimmed == "" {
		r.scalars = append(r.scalars, '0')
		return nil
	}
	if neg {
		r.scalars = append(r.scalars, '-')
	}
	r.scalars = append(r.scalars, trimmed...)
	r.scalars = append(r.scalars, 'e')
	r.scalars = append(r.scalars, exp.String()...)
	return nil
}

// refAppendString writes s as a JSON string: quotes, backslashes and
// control characters escaped, everything else as UTF-8.
func refAppendString(out []byte, s string) []byte {
	out = append(out, '"')
	for _, c := range []byte(s) {
		switch {
		case c == '"' || c == '\\':
			out = append(out, '\\', c)
		case c < 0x20:
			out = append(out, fmt.Sprintf("\\u%04x", c)...)
		default:
			out = append(out, c)
		}
	}
	return append(out, '"')
}

func refOrBody(path string) string {
	if path == "" {
		return "body"
	}
	return path
}
