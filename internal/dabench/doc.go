// Package dabench loads and scores InfiAgent-DABench, the closed-form
// data-analysis benchmark (DAEval dev set: 257 questions over 52 CSV files)
// kept under /work/shared/bench/dabench.
//
// Each question asks for one or more answers in the form @name[value]. Load
// joins da-dev-questions.jsonl with da-dev-labels.jsonl; ScoreOne and
// Summarize score responses exactly as upstream eval_closed_form.py does
// (regex extraction, string equality or |a-b| < 1e-6 between Python
// floats), except that the set of evaluated questions is every question:
// a missing or failed answer counts as wrong instead of leaving the
// denominator. Specs reads what a question's format says about each
// answer (number of decimals, integer, text, yes/no), so an agent can
// print its answers the way they will be compared, and Format prints them.
//
// The data is licensed CC BY-NC 4.0: it is read by path at run time and
// never copied into the repository.
package dabench
