package rcabench

import (
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(path, ".gz") {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	if _, err := zw.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// additiveLeaves renders a 3x3 cross product where leaf a=a2&b=b3 drops
// to a tenth and every other leaf holds steady (with a little noise).
func additiveLeaves() string {
	var sb strings.Builder
	sb.WriteString("real,predict,a,b\n")
	for i := 1; i <= 3; i++ {
		for j := 1; j <= 3; j++ {
			predict := float64(100 + 10*i + j)
			real := predict * (1 + 0.01*float64((i+j)%3-1))
			if i == 2 && j == 3 {
				real = predict / 10
			}
			fmt.Fprintf(&sb, "%g,%g,a%d,b%d\n", real, predict, i, j)
		}
	}
	return sb.String()
}

func TestLoadAdditiveAndRun(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "riskloc_S", "cases.csv"),
		"case_id,setting,file,root_cause,root_cause_raw,n_elements,layer,significance\n"+
			"101,,101.csv.gz,b=b3&a=a2,b=b3&a=a2,1,2,0.1\n")
	writeFile(t, filepath.Join(dir, "riskloc_S", "101.csv.gz"), additiveLeaves())

	cases, err := LoadCases(dir, Datasets[1])
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 1 || cases[0].ID != "101" || !reflect.DeepEqual(cases[0].Truth, []string{"a=a2&b=b3"}) {
		t.Fatalf("LoadCases = %+v; want one case 101 with truth a=a2&b=b3", cases)
	}
	cube, err := LoadCube(cases[0])
	if err != nil {
		t.Fatal(err)
	}
	if cube.Len() != 9 || !reflect.DeepEqual(cube.Dims, []string{"a", "b"}) || cube.Ratio() {
		t.Fatalf("LoadCube: %d leaves, dims %v, ratio %v; want 9, [a b], false", cube.Len(), cube.Dims, cube.Ratio())
	}
	if cube.Num0[0] != 111 || cube.Labels[1][cube.Codes[1][0]] != "b1" {
		t.Errorf("LoadCube first leaf: predict %v, b %q; want 111, b1", cube.Num0[0], cube.Labels[1][cube.Codes[1][0]])
	}

	res, err := Run(context.Background(), Options{Dir: dir, Datasets: []string{"s"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Counts != (Counts{TP: 1}) {
		t.Fatalf("Run = %+v; want one exact hit", res)
	}
	sum := Summarize(res)
	if len(sum) != 2 || sum[0].Setting != SettingAll || sum[0].Method != "search" || sum[0].Counts.F1() != 1 {
		t.Errorf("Summarize = %+v; want an ALL row of search with F1 1", sum)
	}
	if half := sum[1]; half.Cases != 1 || (half.Setting != SettingHeldOut && half.Setting != SettingTuned) {
		t.Errorf("Summarize = %+v; want the case's half next", sum)
	}
}

func TestLoadRatio(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "robustspot_RS", "cases.csv"),
		"case_id,raw_file,anomaly_minute,baseline_minutes,dims,n_leaves_cmp,root_cause,n_elements,layer\n"+
			"rs001,raw/x.csv,60,0,isp|cdn,2,cdn=1,1,1\n")
	writeFile(t, filepath.Join(dir, "robustspot_RS", "cases", "rs001.csv"),
		"isp,cdn,stall_cmp,total_cmp,stall_base,total_base,base_minutes\n"+
			"电信,1,30,100,3,90,4\n"+
			"移动,2,2,50,2,55,4\n")
	cases, err := LoadCases(dir, Datasets[3])
	if err != nil {
		t.Fatal(err)
	}
	cube, err := LoadCube(cases[0])
	if err != nil {
		t.Fatal(err)
	}
	if !cube.Ratio() || !reflect.DeepEqual(cube.Dims, []string{"cdn", "isp"}) {
		t.Fatalf("LoadCube(ratio): ratio %v dims %v; want true [cdn isp]", cube.Ratio(), cube.Dims)
	}
	want := [][]float64{{3, 2}, {30, 2}, {90, 55}, {100, 50}}
	got := [][]float64{cube.Num0, cube.Num1, cube.Den0, cube.Den1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("LoadCube(ratio) values = %v; want %v", got, want)
	}
	if cube.Labels[1][cube.Codes[1][0]] != "电信" {
		t.Errorf("LoadCube(ratio) isp = %q; want 电信", cube.Labels[1][cube.Codes[1][0]])
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadCases(dir, Datasets[0]); err == nil {
		t.Error("LoadCases(missing dir) = nil error; want one")
	}
	writeFile(t, filepath.Join(dir, "bad.csv"), "a,b,real\nx,y,1\n")
	if _, err := LoadCube(Case{Path: filepath.Join(dir, "bad.csv")}); err == nil {
		t.Error("LoadCube(no predict column) = nil error; want one")
	}
	if _, err := Run(context.Background(), Options{Dir: dir, Datasets: []string{"nope"}}); err == nil {
		t.Error("Run(unknown dataset) = nil error; want one")
	}
}

func TestLoadReferences(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "_reference_runs", "summary.csv"),
		"algorithm,dataset,setting,cases,tp,fp,fn,precision,recall,f1,mean_seconds_per_case,errors_or_timeouts\n"+
			"slow,B0,ALL,1,1,0,0,1,1,0.9,3.0,0\n"+
			"fast,B0,ALL,1,1,0,0,1,1,0.9,1.0,0\n"+
			"weak,B0,ALL,1,1,0,0,1,1,0.5,0.1,0\n")
	refs, err := LoadReferences(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := refs[[2]string{"B0", "ALL"}]; got.Algorithm != "fast" || got.F1 != 0.9 {
		t.Errorf("LoadReferences B0/ALL = %+v; want fast with F1 0.9", got)
	}
}
