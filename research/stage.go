package research

// Stage is one step of a research's progress, its progress event: the
// status it is in and a line for a person.
type Stage struct {
	Status  Status `json:"status"`
	Message string `json:"message"`
}
