package audit

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/quarry-dev/quarry"
)

// The event data of an entry is written as Python's json.dumps writes the
// same values, so that the line Python reads back and the canonical JSON
// both sides hash agree: a float stays a float ("1.0", "3.0255e-05",
// "1e-07", "-0.0"), an int stays an int. encoding/json alone would write
// the float 1.0 as "1", an int to Python, and 3.0255e-05 as
// "0.000030255".

// pythonData returns v as generic JSON values (maps, slices, strings,
// bools, nil and json.Number literals in Python's form) ready to be
// written and hashed. Floats and integers held directly, or in maps,
// slices and arrays, keep their kind; a value with its own JSON encoding
// (a struct, a time, a json.Marshaler) is taken as encoding/json writes
// it, where a float that holds an integer has lost its fraction already
// and is an int. NaN and the infinities cannot be written as JSON: data
// holding one is refused, naming where it is.
func pythonData(v any) (any, error) {
	return pyValue(reflect.ValueOf(v), "event_data")
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	numberType    = reflect.TypeFor[json.Number]()
)

func pyValue(v reflect.Value, where string) (any, error) {
	if !v.IsValid() {
		return nil, nil
	}
	t := v.Type()
	if t == numberType {
		return json.Number(quarry.PythonNumber(v.String())), nil
	}
	if t.Kind() != reflect.Interface && t.Kind() != reflect.Pointer &&
		(t.Implements(jsonMarshaler) || t.Implements(textMarshaler) ||
			reflect.PointerTo(t).Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(textMarshaler)) {
		return viaJSON(v, where)
	}
	switch t.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return nil, nil
		}
		return pyValue(v.Elem(), where)
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.String:
		return v.String(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return json.Number(strconv.FormatInt(v.Int(), 10)), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return json.Number(strconv.FormatUint(v.Uint(), 10)), nil
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%s is %v, which JSON cannot hold", where, f)
		}
		if t.Kind() == reflect.Float32 {
			// The float32's shortest digits, as encoding/json writes
			// them, are the value Python reads.
			f, _ = strconv.ParseFloat(strconv.FormatFloat(f, 'g', -1, 32), 64)
		}
		return json.Number(quarry.PythonFloat(f)), nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return viaJSON(v, where)
		}
		if v.IsNil() {
			return nil, nil
		}
		out := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			k := it.Key().String()
			x, err := pyValue(it.Value(), where+"."+k)
			if err != nil {
				return nil, err
			}
			out[k] = x
		}
		return out, nil
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return viaJSON(v, where) // bytes are base64 text
		}
		if t.Kind() == reflect.Slice && v.IsNil() {
			return nil, nil
		}
		out := make([]any, v.Len())
		for i := range out {
			x, err := pyValue(v.Index(i), fmt.Sprintf("%s[%d]", where, i))
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	}
	return viaJSON(v, where)
}

// viaJSON takes v as encoding/json writes it, then in Python's form.
func viaJSON(v reflect.Value, where string) (any, error) {
	raw, err := json.Marshal(v.Interface())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	return pyValue(reflect.ValueOf(generic), where)
}
