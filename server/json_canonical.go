package server

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A request body is read once for what it means: canonicalJSON checks the
// things a second reader of the same bytes could see differently (a key
// given twice, which encoding/json resolves to its last value while a proxy
// or signer may take the first; a lone UTF-16 surrogate escape, which
// decoders replace by U+FFFD or refuse as they please), and writes the value
// in one canonical form: object keys sorted, no insignificant whitespace,
// strings with one escaping, numbers as their decimal value. Two bodies
// with the same canonical form are the same request, whatever key order,
// spacing or number spelling a client used; Idempotency-Key compares them
// that way. decodeJSON reads every request body through the same reader
// (readJSON) and checks the tree it builds.

// jsonProblem is a body that is valid JSON syntax but means different
// things to different readers; path names where (metadata.orderId).
type jsonProblem struct {
	path, msg string
}

func (p *jsonProblem) Error() string { return p.path + ": " + p.msg }

var errJSONSyntax = errors.New("malformed JSON")

// maxJSONDepth is how many objects and arrays encoding/json takes inside
// one another. The reader takes one level more: its canonical forms key the
// responses stored under Idempotency-Key, so its limit stays where those
// were made; decodeJSON refuses the extra level (jsonReader.deepest).
const maxJSONDepth = 10000

// canonicalJSON is body's canonical form. A body that is not one JSON value
// is errJSONSyntax; a duplicate key or lone surrogate is a *jsonProblem.
//
// The work is linear in the body however deep it nests: the value is read
// into a tree (scalars already in canonical form) and written out once,
// and a member's path is spelled out only for a problem.
func canonicalJSON(body []byte) ([]byte, error) {
	r, v, err := readJSON(body)
	if err != nil {
		return nil, err
	}
	return r.write(make([]byte, 0, len(r.scalars)+len(body)/2), v), nil
}

// readJSON reads body into its tree, with canonicalJSON's errors.
func readJSON(body []byte) (*jsonReader, jsonValue, error) {
	r := &jsonReader{in: body, text: string(body), scalars: make([]byte, 0, len(body))}
	r.space()
	v, err := r.value(0)
	if err != nil {
		return nil, v, err
	}
	r.space()
	if r.pos != len(r.in) {
		return nil, v, errJSONSyntax
	}
	return r, v, nil
}

// A request body is read once per request and costs a few microseconds:
// strings without escapes are taken from the body as they are, an object
// checks its first few keys for repeats without a map, numbers of ordinary
// size are worked out in an int64, and where the reader is (the path a
// problem is named by) is a stack, spelled out only for a problem.
// json_canonical_ref_test.go holds the reader before this, and the
// differential tests hold this one to its bytes, hashes and refusals.

type jsonReader struct {
	in  []byte
	pos int
	// text is in as a string: a string without escapes is a piece of it.
	text string
	// scalars holds every string, number and literal in canonical form;
	// a jsonValue points into it.
	scalars []byte
	// deepest is the most objects and arrays read inside one another.
	deepest int
	// at is where the reader is: the member keys and array indexes from
	// the top to the value being read.
	at []jsonStep
	// members and elements gather the objects and arrays being read; each
	// takes its own exact copy when it ends.
	members  []jsonMember
	elements []jsonValue
}

type jsonStep struct {
	key   string
	index int // -1 for a member key
}

// jsonValue is one value read: a scalar at scalars[from:to] (a string's
// decoded text also in text), or an object (members sorted by key) or
// array.
type jsonValue struct {
	from, to int
	text     string
	object   []jsonMember
	array    []jsonValue
	kind     byte // '"' for a string, 's' for another scalar, '{' or '['
}

type jsonMember struct {
	key string
	val jsonValue
}

// jsonPath is where a value sits: a member key or an array index under
// its parent (nil at the top).
type jsonPath struct {
	up    *jsonPath
	key   string
	index int // -1 for a member key
}

// String names the value the way field errors do: key at the top,
// parent.key below it, parent[i] in an array; "" at the top.
func (p *jsonPath) String() string {
	var up []jsonStep
	for ; p != nil; p = p.up {
		up = append(up, jsonStep{p.key, p.index})
	}
	slices.Reverse(up)
	return pathString(up)
}

func pathString(steps []jsonStep) string {
	var b strings.Builder
	for _, s := range steps {
		switch {
		case s.index >= 0:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case b.Len() > 0:
			b.WriteString("." + s.key)
		default:
			b.WriteString(s.key)
		}
	}
	return b.String()
}

// problem is a *jsonProblem at the reader's place ("body" at the top).
func (r *jsonReader) problem(msg string) error {
	return &jsonProblem{orBody(pathString(r.at)), msg}
}

func (r *jsonReader) space() {
	for r.pos < len(r.in) {
		switch r.in[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

var jsonLiterals = [...][]byte{[]byte("true"), []byte("false"), []byte("null")}

func (r *jsonReader) value(depth int) (jsonValue, error) {
	if r.pos >= len(r.in) || depth > maxJSONDepth {
		return jsonValue{}, errJSONSyntax
	}
	from := len(r.scalars)
	switch c := r.in[r.pos]; {
	case c == '{':
		r.deepest = max(r.deepest, depth+1)
		return r.object(depth)
	case c == '[':
		r.deepest = max(r.deepest, depth+1)
		return r.array(depth)
	case c == '"':
		s, err := r.str()
		if err != nil {
			return jsonValue{}, err
		}
		r.scalars = appendJSONString(r.scalars, s)
		return jsonValue{kind: '"', from: from, to: len(r.scalars), text: s}, nil
	case c == '-' || c >= '0' && c <= '9':
		err := r.number()
		return jsonValue{kind: 's', from: from, to: len(r.scalars)}, err
	}
	for _, lit := range jsonLiterals {
		if bytes.HasPrefix(r.in[r.pos:], lit) {
			r.pos += len(lit)
			r.scalars = append(r.scalars, lit...)
			return jsonValue{kind: 's', from: from, to: len(r.scalars)}, nil
		}
	}
	return jsonValue{}, errJSONSyntax
}

// fewKeys is how many members an object checks for a repeated key by
// looking through those before; a larger object keeps a set.
const fewKeys = 16

func (r *jsonReader) object(depth int) (jsonValue, error) {
	r.pos++ // {
	v := jsonValue{kind: '{', object: []jsonMember{}}
	var seen map[string]bool
	r.space()
	if r.pos < len(r.in) && r.in[r.pos] == '}' {
		r.pos++
		return v, nil
	}
	first := len(r.members)
	for {
		r.space()
		if r.pos >= len(r.in) || r.in[r.pos] != '"' {
			return v, errJSONSyntax
		}
		key, err := r.str()
		if err != nil {
			return v, err
		}
		r.at = append(r.at, jsonStep{key, -1})
		if repeated(r.members[first:], &seen, key) {
			return v, &jsonProblem{pathString(r.at), "appears more than once in its object; send each key once"}
		}
		r.space()
		if r.pos >= len(r.in) || r.in[r.pos] != ':' {
			return v, errJSONSyntax
		}
		r.pos++
		r.space()
		val, err := r.value(depth + 1)
		if err != nil {
			return v, err
		}
		r.at = r.at[:len(r.at)-1]
		r.members = append(r.members, jsonMember{key, val})
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
	v.object = slices.Clone(r.members[first:])
	clear(r.members[first:]) // no longer pointing at what it gathered
	r.members = r.members[:first]
	if len(v.object) > 1 {
		slices.SortFunc(v.object, func(a, b jsonMember) int { return strings.Compare(a.key, b.key) })
	}
	return v, nil
}

// repeated reports whether key is among the members read so far.
func repeated(members []jsonMember, seen *map[string]bool, key string) bool {
	if len(members) < fewKeys {
		for _, m := range members {
			if m.key == key {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, 2*len(members))
		for _, m := range members {
			(*seen)[m.key] = true
		}
	}
	if (*seen)[key] {
		return true
	}
	(*seen)[key] = true
	return false
}

func (r *jsonReader) array(depth int) (jsonValue, error) {
	r.pos++ // [
	v := jsonValue{kind: '[', array: []jsonValue{}}
	r.space()
	if r.pos < len(r.in) && r.in[r.pos] == ']' {
		r.pos++
		return v, nil
	}
	first := len(r.elements)
	for i := 0; ; i++ {
		r.space()
		r.at = append(r.at, jsonStep{index: i})
		el, err := r.value(depth + 1)
		if err != nil {
			return v, err
		}
		r.at = r.at[:len(r.at)-1]
		r.elements = append(r.elements, el)
		r.space()
		if r.pos >= len(r.in) {
			return v, errJSONSyntax
		}
		if r.in[r.pos] == ']' {
			r.pos++
			v.array = slices.Clone(r.elements[first:])
			clear(r.elements[first:])
			r.elements = r.elements[:first]
			return v, nil
		}
		if r.in[r.pos] != ',' {
			return v, errJSONSyntax
		}
		r.pos++
	}
}

// write appends v in canonical form: no whitespace, members in key order.
func (r *jsonReader) write(out []byte, v jsonValue) []byte {
	switch v.kind {
	case '{':
		out = append(out, '{')
		for i, m := range v.object {
			if i > 0 {
				out = append(out, ',')
			}
			out = appendJSONString(out, m.key)
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
// a \uD800–\uDFFF escape must be half of a surrogate pair. A string with
// no escape and no byte to refuse is the body's own bytes.
func (r *jsonReader) str() (string, error) {
	r.pos++ // "
	start := r.pos
	for r.pos < len(r.in) {
		c := r.in[r.pos]
		switch {
		case c == '"':
			r.pos++
			return r.text[start : r.pos-1], nil
		case c == '\\' || c < 0x20:
		case c < utf8.RuneSelf:
			r.pos++
			continue
		default:
			if ch, n := utf8.DecodeRune(r.in[r.pos:]); ch != utf8.RuneError || n > 1 {
				r.pos += n
				continue
			}
		}
		break
	}
	var b strings.Builder
	b.Write(r.in[start:r.pos])
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
			if err := r.escape(&b); err != nil {
				return "", err
			}
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			r.pos++
		default:
			ch, n := utf8.DecodeRune(r.in[r.pos:])
			if ch == utf8.RuneError && n == 1 {
				return "", r.problem("must be valid UTF-8")
			}
			b.WriteRune(ch)
			r.pos += n
		}
	}
}

func (r *jsonReader) escape(b *strings.Builder) error {
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
		return r.problem(fmt.Sprintf("contains a lone surrogate escape \\u%04x; send the character itself or a complete surrogate pair", u))
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

func (r *jsonReader) hex4() (uint16, bool) {
	if r.pos+4 > len(r.in) {
		return 0, false
	}
	var v uint16
	for _, c := range r.in[r.pos : r.pos+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | uint16(c)
	}
	r.pos += 4
	return v, true
}

// number reads a JSON number and writes its decimal value canonically:
// digits without leading or trailing zeros and a power of ten, so 250,
// 250.00 and 2.5e2 are all "25e1"; every zero is "0".
func (r *jsonReader) number() error {
	neg := r.in[r.pos] == '-'
	if neg {
		r.pos++
	}
	digits := func() []byte {
		s := r.pos
		for r.pos < len(r.in) && r.in[r.pos] >= '0' && r.in[r.pos] <= '9' {
			r.pos++
		}
		return r.in[s:r.pos]
	}
	intPart := digits()
	if len(intPart) == 0 || len(intPart) > 1 && intPart[0] == '0' {
		return errJSONSyntax
	}
	var frac []byte
	if r.pos < len(r.in) && r.in[r.pos] == '.' {
		r.pos++
		if frac = digits(); len(frac) == 0 {
			return errJSONSyntax
		}
	}
	var expSign byte
	var expDigits []byte
	if r.pos < len(r.in) && (r.in[r.pos] == 'e' || r.in[r.pos] == 'E') {
		r.pos++
		if r.pos < len(r.in) && (r.in[r.pos] == '+' || r.in[r.pos] == '-') {
			expSign = r.in[r.pos]
			r.pos++
		}
		if expDigits = digits(); len(expDigits) == 0 {
			return errJSONSyntax
		}
	}
	// The significant digits: intPart and frac without the zeros that
	// lead the first or trail the last; each trailing zero moves the
	// exponent up by one, each digit of frac down by one.
	lead, trail := 0, 0
	for lead < len(intPart)+len(frac) && digitAt(intPart, frac, lead) == '0' {
		lead++
	}
	for trail < len(intPart)+len(frac)-lead && digitAt(intPart, frac, len(intPart)+len(frac)-1-trail) == '0' {
		trail++
	}
	if lead+trail == len(intPart)+len(frac) {
		r.scalars = append(r.scalars, '0')
		return nil
	}
	if neg {
		r.scalars = append(r.scalars, '-')
	}
	for i := lead; i < len(intPart)+len(frac)-trail; i++ {
		r.scalars = append(r.scalars, digitAt(intPart, frac, i))
	}
	r.scalars = append(r.scalars, 'e')
	shift := int64(trail) - int64(len(frac))
	if len(expDigits) <= 15 { // |exponent| < 10^15, far from int64's edge
		e, _ := strconv.ParseInt(string(expDigits), 10, 64)
		if expSign == '-' {
			e = -e
		}
		r.scalars = strconv.AppendInt(r.scalars, e+shift, 10)
		return nil
	}
	exp := new(big.Int)
	exp.SetString(string(expDigits), 10)
	if expSign == '-' {
		exp.Neg(exp)
	}
	exp.Add(exp, big.NewInt(shift))
	r.scalars = append(r.scalars, exp.String()...)
	return nil
}

// digitAt is the i-th digit of intPart followed by frac.
func digitAt(intPart, frac []byte, i int) byte {
	if i < len(intPart) {
		return intPart[i]
	}
	return frac[i-len(intPart)]
}

// appendJSONString writes s as a JSON string: quotes, backslashes and
// control characters escaped, everything else as UTF-8.
func appendJSONString(out []byte, s string) []byte {
	out = append(out, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			out = append(out, '\\', c)
		case c < 0x20:
			out = append(out, `\u00`...)
			out = append(out, hexDigits[c>>4], hexDigits[c&0xf])
		default:
			out = append(out, c)
		}
	}
	return append(out, '"')
}

const hexDigits = "0123456789abcdef"

func orBody(path string) string {
	if path == "" {
		return "body"
	}
	return path
}
