package closedform

func (a *analysis) chiSquare(w *want) (testResult, bool) { return testResult{}, false }
func (a *analysis) modelAnswer(w *want) (float64, bool)  { return 0, false }
func (a *analysis) regressionR2(w *want) (float64, bool) { return 0, false }
