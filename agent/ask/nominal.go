package ask

import "strings"

// How a question and a passage say one thing as a noun and as a verb:
// "the installation of the font" and "install the font", "a description
// of the option" and "describes the option". The stemmer relates some of
// them (installation, install: instal) but leaves others apart: the -ion
// it keeps short of a word's second syllable (creation, create: creat),
// the -i of -ify (specification, specify: specif, specifi), -ition
// (definition, define), -scription (description, describe) and -or
// (compressor, compress). verbStem undoes those on a word's stem.

// verbStem returns s, the stem of the lower-case word w, as the stem of
// the verb w is made of when w is a noun made of one, or s unchanged.
func verbStem(w, s string) string {
	switch {
	case strings.HasSuffix(w, "scription") && strings.HasSuffix(s, "script"):
		return strings.TrimSuffix(s, "pt") + "b" // description: describ
	case strings.HasSuffix(w, "ition") && strings.HasSuffix(s, "it") && len(s) >= 5:
		return strings.TrimSuffix(s, "it") // addition: add, definition: defin
	case strings.HasSuffix(w, "ation") && strings.HasSuffix(s, "ation") && len(s) >= 8:
		return strings.TrimSuffix(s, "ion") // creation: creat
	case strings.HasSuffix(w, "or") && strings.HasSuffix(s, "or") && len(w) >= 8:
		return strings.TrimSuffix(s, "or") // compressor: compress, allocator: allocat
	case strings.HasSuffix(s, "ifi"), strings.HasSuffix(s, "efi"):
		return strings.TrimSuffix(s, "i") // specify: specif, as specification
	}
	return s
}
