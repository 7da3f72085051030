package intent

import (
	"slices"
	"strings"
)

// Soil, water and assay tables name their columns by chemical symbols
// ("Cd", "Cu", "Pb", "Zn") where a request names the elements ("cadmium",
// "copper", "lead"). Read as abbreviations the names go wrong: "copper"
// would be Cr (chromium) by its first and last letters. In a table with
// columns of two symbols or more, an element's name is read as its
// symbol, and never as an abbreviation of another column.

// elementSymbols maps the English name of each element to its symbol.
var elementSymbols = func() map[string]string {
	const table = `hydrogen H helium He lithium Li beryllium Be boron B carbon C nitrogen N oxygen O fluorine F
	neon Ne sodium Na magnesium Mg aluminium Al aluminum Al silicon Si phosphorus P sulfur S sulphur S chlorine Cl
	argon Ar potassium K calcium Ca scandium Sc titanium Ti vanadium V chromium Cr manganese Mn iron Fe cobalt Co
	nickel Ni copper Cu zinc Zn gallium Ga germanium Ge arsenic As selenium Se bromine Br krypton Kr rubidium Rb
	strontium Sr yttrium Y zirconium Zr niobium Nb molybdenum Mo technetium Tc ruthenium Ru rhodium Rh
	palladium Pd silver Ag cadmium Cd indium In tin Sn antimony Sb tellurium Te iodine I xenon Xe caesium Cs
	cesium Cs barium Ba lanthanum La cerium Ce praseodymium Pr neodymium Nd promethium Pm samarium Sm
	europium Eu gadolinium Gd terbium Tb dysprosium Dy holmium Ho erbium Er thulium Tm ytterbium Yb lutetium Lu
	hafnium Hf tantalum Ta tungsten W rhenium Re osmium Os iridium Ir platinum Pt gold Au mercury Hg
	thallium Tl lead Pb bismuth Bi polonium Po astatine At radon Rn francium Fr radium Ra actinium Ac
	thorium Th protactinium Pa uranium U neptunium Np plutonium Pu americium Am curium Cm berkelium Bk
	californium Cf einsteinium Es fermium Fm mendelevium Md nobelium No lawrencium Lr`
	f := strings.Fields(table)
	m := make(map[string]string, len(f)/2)
	for i := 0; i+1 < len(f); i += 2 {
		m[f[i]] = f[i+1]
	}
	return m
}()

// isSymbol reports whether name is written as a chemical symbol: an
// element's symbol with its capital.
var isSymbol = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range elementSymbols {
		m[s] = true
	}
	return m
}()

// symbolColumns returns the chosen table's columns named by chemical
// symbols of two letters or more, keyed by the symbol in lower case, when
// there are two such columns at least: a single "Co" or "Ca" may be
// anything.
func (p *parser) symbolColumns() map[string]string {
	if p.t == nil {
		return nil
	}
	cols := map[string]string{}
	for ci := range p.t.Columns {
		c := &p.t.Columns[ci]
		if len(c.Name) >= 2 && isSymbol[c.Name] && isNumeric(c) {
			cols[strings.ToLower(c.Name)] = c.Name
		}
	}
	if len(cols) < 2 {
		return nil
	}
	return cols
}

// readElements rewrites each free word that names an element, in a table
// whose columns are chemical symbols, to the symbol: "copper" is Cu. An
// element whose symbol no column has is left as it is said.
func (p *parser) readElements() {
	cols := p.symbolColumns()
	if cols == nil || slices.ContainsFunc(p.t.Columns, func(c Column) bool { return stopwords[strings.ToLower(c.Name)] }) {
		// a column In or As is read wherever "in" or "as" is said: no
		// element is read by its name beside it
		return
	}
	for i := range p.toks {
		t := &p.toks[i]
		sym, ok := elementSymbols[t.low]
		if !p.free(i) || t.kind != kWord || !ok || p.namesColumnOrValue(t.low) {
			continue
		}
		if _, has := cols[strings.ToLower(sym)]; has {
			t.low = strings.ToLower(sym)
		}
	}
}

// elementAlone reports whether w names an element whose symbol no column
// of the chosen table has, in a table whose columns are symbols: it is
// not to be read as an abbreviation ("copper" as Cr).
func (p *parser) elementAlone(w string) bool {
	return elementSymbols[w] != "" && p.symbolColumns() != nil
}
