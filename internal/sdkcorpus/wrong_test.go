package sdkcorpus_test

// knownWrong lists, as "CHECK/CASE", the advice that is wrong today (the failing test output
// says what it says and what is wrong with it). TestAdvice requires each of them to still fail,
// so that an entry goes with the fix of its advice.
var knownWrong = map[string]bool{}
