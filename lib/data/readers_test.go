package data

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sharedData = "../../../shared/data"

func need(t *testing.T, rel string) string {
	p := filepath.Join(sharedData, rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("real data %s absent: %v", p, err)
	}
	return p
}

func checkShare(t *testing.T, what string, ds *Dataset, n int, share float64) {
	t.Helper()
	if ds.N() != n {
		t.Errorf("%s: %d rows, want %d", what, ds.N(), n)
	}
	if s := ds.PositiveShare(); math.Abs(s-share) > 5e-5 {
		t.Errorf("%s: positive share %.5f, want %.4f", what, s, share)
	}
	if err := ds.Validate(); err != nil {
		t.Error(err)
	}
}

// Row counts and positive shares stated in shared/data/README.md.
func TestACSReal(t *testing.T) {
	wy := need(t, "acs_pums_2024_1yr/psam_p56_wy_2024_full.csv")
	big4 := need(t, "acs_pums_2024_1yr/psam_fl_il_ny_pa_2024_hh20pct.csv")
	rest := need(t, "acs_pums_2024_1yr/psam_43states_dc_2024_hh2pct.csv")
	inc := ACSIncome(50000)
	pub := ACSPublicCoverage()
	for _, c := range []struct {
		task  *ACSTask
		path  string
		n     int
		share float64
	}{
		{inc, wy, 3212, 0.4486}, {pub, wy, 1687, 0.1891},
		{inc, big4, 70426, 0.4897}, {pub, big4, 39168, 0.3433},
		{inc, rest, 20846, 0.4919}, {pub, rest, 11235, 0.3366},
	} {
		ds, err := c.task.ReadFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		checkShare(t, c.task.Name+" "+filepath.Base(c.path), ds, c.n, c.share)
		box, err := c.task.Box()
		if err != nil {
			t.Fatal(err)
		}
		sc, err := box.Scale(ds, false)
		if err != nil {
			t.Fatalf("%s: code-book box does not hold the data: %v", c.task.Name, err)
		}
		for _, v := range sc.X {
			if v < -1 || v > 1 {
				t.Fatalf("scaled value %v outside [-1,1]", v)
			}
		}
	}
	// The 62.5k cut gives roughly the 2018 balance on the big-4 file.
	ds, err := ACSIncome(62500).ReadFile(big4)
	if err != nil {
		t.Fatal(err)
	}
	if s := ds.PositiveShare(); math.Abs(s-0.399) > 0.01 { // README: "near 62,500 ... 0.399"; we get 0.3935
		t.Errorf("big-4 share at 62.5k = %.4f, want 0.399", s)
	}
	// Both files together.
	all, err := inc.ReadFile(wy, rest)
	if err != nil {
		t.Fatal(err)
	}
	if all.N() != 3212+20846 {
		t.Errorf("two files: %d rows, want %d", all.N(), 3212+20846)
	}
}

func TestAdultReal(t *testing.T) {
	tr, err := ReadAdultFile(need(t, "uci_adult/adult.data"))
	if err != nil {
		t.Fatal(err)
	}
	checkShare(t, "adult.data", tr, 32561, 0.2408)
	if k := int(math.Round(tr.PositiveShare() * float64(tr.N()))); k != 7841 {
		t.Errorf("adult.data positives %d, want 7841", k)
	}
	te, err := ReadAdultFile(need(t, "uci_adult/adult.test"))
	if err != nil {
		t.Fatal(err)
	}
	if k := int(math.Round(te.PositiveShare() * float64(te.N()))); te.N() != 16281 || k != 3846 {
		t.Errorf("adult.test: %d rows, %d positives, want 16281 and 3846", te.N(), k)
	}
	box, err := CodeBookBox(AdultFeatures, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := box.Scale(tr, false); err != nil {
		t.Errorf("Adult code-book box: %v", err)
	}
}

func TestMalformed(t *testing.T) {
	head := "SERIALNO,SPORDER,STATE,PWGTP,AGEP,SEX,RAC1P,CIT,SCHL,MAR,OCCP,COW,WKHP,PINCP,PUBCOV\n"
	good := "A1,1,56,10,40,1,1,1,21,1,10,1,40,60000,2\n"
	cases := []struct{ in, want string }{
		{head + good + "A2,1,56,10,4x,1,1,1,21,1,10,1,40,60000,2\n", "f.csv:3: column AGEP (field 5): invalid number \"4x\""},
		{head + good + good + "A3,1,56\n", "f.csv:4: 3 fields, want 15"},
		{strings.Replace(head, "WKHP", "WKHX", 1) + good, "no column \"WKHP\""},
	}
	for _, c := range cases {
		_, err := ACSIncome(50000).Read(strings.NewReader(c.in), "f.csv")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want it to contain %q", err, c.want)
		}
	}
	ds, err := ACSIncome(50000).Read(strings.NewReader(head+good+"A4,1,56,10,40,1,1,1,21,1,,,40,60000,2\n"), "f.csv")
	if err != nil {
		t.Fatal(err)
	}
	if ds.N() != 2 || ds.Row(1)[1] != 0 || ds.Row(1)[4] != 0 {
		t.Errorf("blank fields: rows %d, row 1 = %v; want COW and OCCP = 0", ds.N(), ds.Row(1))
	}
	_, err = ReadAdult(strings.NewReader("39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n50, x, 1, y, z, a, b, c, d, Male, 0, 0, 13, US, <=50K\n"), "a.data")
	if err == nil || !strings.Contains(err.Error(), "a.data:2: column education-num (field 5)") {
		t.Errorf("Adult error %v", err)
	}
}

func TestSplitSelectScale(t *testing.T) {
	ds := &Dataset{Names: []string{"a", "b"}, Target: "y"}
	for i := range 1000 {
		ds.X = append(ds.X, float64(i), float64(2*i))
		ds.Y = append(ds.Y, float64(i%2))
	}
	tr, te, err := ds.Split(0.2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if tr.N() != 800 || te.N() != 200 {
		t.Fatalf("split %d/%d, want 800/200", tr.N(), te.N())
	}
	seen := map[float64]bool{}
	for _, s := range []*Dataset{tr, te} {
		for i := range s.N() {
			r := s.Row(i)
			if r[1] != 2*r[0] || s.Y[i] != float64(int(r[0])%2) {
				t.Fatal("split broke rows apart")
			}
			seen[r[0]] = true
		}
	}
	if len(seen) != 1000 {
		t.Errorf("split lost rows: %d distinct", len(seen))
	}
	tr2, _, _ := ds.Split(0.2, 3)
	if tr2.X[0] != tr.X[0] || tr2.X[10] != tr.X[10] {
		t.Error("split not reproducible")
	}
	b, _ := ds.Select("b")
	if b.D() != 1 || b.X[3] != 6 {
		t.Errorf("Select: %v", b.X[:4])
	}
	box := UniformBox([]string{"a", "b"}, 0, 999)
	if _, err := box.Scale(ds, false); err == nil || !strings.Contains(err.Error(), `feature "b"`) {
		t.Errorf("out-of-box error %v", err)
	}
	sc, err := box.Scale(ds, true)
	if err != nil {
		t.Fatal(err)
	}
	if sc.X[0] != -1 || sc.X[len(sc.X)-1] != 1 || sc.X[len(sc.X)-2] != 1 {
		t.Errorf("scaled ends %v %v", sc.X[0], sc.X[len(sc.X)-2:])
	}
	if _, err := CodeBookBox([]string{"NOPE"}, nil); err == nil {
		t.Error("unknown code-book feature accepted")
	}
}

// A 2018-style file: ST instead of STATE, MIG present, RT column.
func TestACS2018Header(t *testing.T) {
	in := "RT,SERIALNO,ST,PWGTP,AGEP,SEX,RAC1P,CIT,SCHL,MAR,DIS,MIG,MIL,NATIVITY,DEAR,DEYE,DREM,PINCP,ESR,FER,PUBCOV,WKHP\n" +
		"P,2018GQ1,06,5,30,2,1,1,16,5,2,3,4,1,2,2,2,12000,1,2,1,40\n" +
		"P,2018GQ2,06,5,70,2,1,1,16,5,2,1,4,1,2,2,2,12000,6,,1,\n" +
		"P,2018GQ3,06,5,40,1,1,1,21,1,2,1,4,1,2,2,2,,1,,2,40\n"
	ds, err := ACSPublicCoverage().Read(strings.NewReader(in), "p06.csv")
	if err != nil {
		t.Fatal(err)
	}
	// Row 2 fails AGEP<65, row 3 has no PINCP.
	if ds.N() != 1 || ds.Y[0] != 1 {
		t.Fatalf("rows %d labels %v, want one positive row", ds.N(), ds.Y)
	}
	st, _ := ds.Column("ST")
	mig, _ := ds.Column("MIG")
	fer, _ := ds.Column("FER")
	if st[0] != 6 || mig[0] != 3 || fer[0] != 2 {
		t.Errorf("ST %v MIG %v FER %v, want 6, 3, 2", st, mig, fer)
	}
	// MIG derived from MIGSP when absent (2024 projection).
	in24 := "STATE,AGEP,SEX,SCHL,MAR,PINCP,PUBCOV,MIGSP\n42,30,1,16,5,100,1,\n42,31,1,16,5,100,2,6\n42,32,1,16,5,100,2,300\n"
	pub := ACSPublicCoverage()
	pub.Features = []string{"AGEP", "MIG", "ST"}
	ds, err = pub.Read(strings.NewReader(in24), "p.csv")
	if err != nil {
		t.Fatal(err)
	}
	mig, _ = ds.Column("MIG")
	if len(mig) != 3 || mig[0] != 1 || mig[1] != 3 || mig[2] != 2 {
		t.Errorf("derived MIG %v, want [1 3 2]", mig)
	}
	p, err := FolktablesPaths("data", 2018, "1-Year", "CA", "PR")
	if err != nil || p[0] != filepath.Join("data", "2018", "1-Year", "psam_p06.csv") || p[1] != filepath.Join("data", "2018", "1-Year", "psam_p72.csv") {
		t.Errorf("FolktablesPaths = %v, %v", p, err)
	}
	if _, err := FolktablesPaths("data", 2018, "1-Year", "XX"); err == nil {
		t.Error("unknown state accepted")
	}
}

// Lines longer than the reader's buffer, CRLF endings and a missing final
// newline are read whole.
func TestCSVLongLines(t *testing.T) {
	long := strings.Repeat("1234567,", 40) + "9"
	in := "h\r\n" + long + "\r\n\r\n" + long
	tab := &csvTable{name: "x", r: bufio.NewReaderSize(strings.NewReader(in), 16), sep: []byte(",")}
	h, err := tab.next()
	if err != nil || string(h) != "h" {
		t.Fatalf("header %q, %v", h, err)
	}
	n := 0
	err = tab.each(41, func(line int, f [][]byte) error {
		n++
		if string(f[40]) != "9" || string(f[0]) != "1234567" {
			t.Errorf("line %d fields %q ... %q", line, f[0], f[40])
		}
		return nil
	})
	if err != nil || n != 2 {
		t.Errorf("read %d lines, err %v; want 2", n, err)
	}
	if _, err := ACSIncome(50000).Read(strings.NewReader(""), "empty.csv"); err == nil || !strings.Contains(err.Error(), "empty.csv:1") {
		t.Errorf("empty file error %v", err)
	}
}

func TestACSRegressionTarget(t *testing.T) {
	head := "SERIALNO,SPORDER,STATE,PWGTP,AGEP,SEX,RAC1P,CIT,SCHL,MAR,OCCP,COW,WKHP,PINCP,PUBCOV\n"
	in := head + "A1,1,56,10,40,1,1,1,21,1,10,1,40,60000,2\nA2,1,56,10,30,2,1,1,16,1,10,1,20,20000,2\n"
	task := ACSIncome(50000)
	task.RegressionTarget = "PINCP"
	ds, err := task.Read(strings.NewReader(in), "r.csv")
	if err != nil {
		t.Fatal(err)
	}
	if ds.N() != 2 || ds.Y[0] != 60000 || ds.Y[1] != 20000 || ds.Target != "PINCP" {
		t.Errorf("regression target: Y = %v, Target %q", ds.Y, ds.Target)
	}
}
