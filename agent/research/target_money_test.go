package research

import "testing"

// An amount beside the company's name is its revenue only when the
// sentence says so.
func TestMoneyTargetNeedsItsWord(t *testing.T) {
	tg := TargetOf("What was Kestrel Dynamics' revenue for fiscal 2024?", "Kestrel Dynamics")
	subject := []string{"kestrel", "dynamics"}
	if _, ok := tg.find("Under the settlement Kestrel Dynamics will pay Corvid Aerial $3.2 million and receives a licence.", subject); ok {
		t.Error("a settlement's amount was taken for revenue")
	}
	c, ok := tg.find("Revenue for fiscal 2024 was $48.2 million, up from $41.5 million in fiscal 2023.", subject)
	if !ok || c.Value.Text != "$48.2 million" {
		t.Errorf("revenue sentence: %+v, %v; want $48.2 million", c, ok)
	}
}
