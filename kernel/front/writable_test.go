package front

import (
	"go/token"
	"go/types"
	"testing"
)

// TestWritable pins the one walk behind writableIn and typeTextAt: a type
// parameter or a function-local type of main is writable only where local
// says so, also inside a struct, a library type's arguments or a signature;
// an unexported type of another package never is.
func TestWritable(t *testing.T) {
	main := types.NewPackage(mainPath, "main")
	other := types.NewPackage("example.com/other", "other")
	tp := types.NewTypeParam(types.NewTypeName(token.NoPos, main, "T", nil), types.NewInterfaceType(nil, nil))
	local := types.NewNamed(types.NewTypeName(token.NoPos, main, "local", nil), types.Typ[types.Int], nil)
	top := types.NewTypeName(token.NoPos, main, "Top", nil)
	main.Scope().Insert(top)
	topT := types.NewNamed(top, types.Typ[types.Int], nil)
	hidden := types.NewNamed(types.NewTypeName(token.NoPos, other, "hidden", nil), types.Typ[types.Int], nil)
	exported := types.NewNamed(types.NewTypeName(token.NoPos, other, "Box", nil), types.Typ[types.Int], nil)
	field := func(t types.Type) types.Type {
		return types.NewStruct([]*types.Var{types.NewField(token.NoPos, main, "V", t, false)}, nil)
	}
	yes := func(*types.TypeName) bool { return true }
	for _, tc := range []struct {
		name      string
		t         types.Type
		top, here bool // writable with local nil, with local always true
	}{
		{"int", types.Typ[types.Int], true, true},
		{"package-level type of main", types.NewSlice(topT), true, true},
		{"exported type of another package", types.NewPointer(exported), true, true},
		{"unexported type of another package", types.NewMap(types.Typ[types.String], hidden), false, false},
		{"type parameter", tp, false, true},
		{"type parameter in a struct", field(tp), false, true},
		{"function-local type in a signature", types.NewSignatureType(nil, nil, nil, types.NewTuple(types.NewParam(token.NoPos, main, "x", local)), nil, false), false, true},
		{"invalid", types.Typ[types.Invalid], false, false},
	} {
		if got := writable(tc.t, nil); got != tc.top {
			t.Errorf("%s: writable(%s, nil) = %v, want %v", tc.name, tc.t, got, tc.top)
		}
		if got := writable(tc.t, yes); got != tc.here {
			t.Errorf("%s: writable(%s, local) = %v, want %v", tc.name, tc.t, got, tc.here)
		}
	}
}
