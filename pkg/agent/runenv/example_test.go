package runenv_test

import (
	"fmt"

	"github.com/dystopic/normalizer/pkg/agent/runenv"
)

func ExampleFromLookup() {
	vars := map[string]string{
		"DYSTOPIC_ODYSSEY_PROXY_URL": "http://127.0.0.1:8700",
		"DYSTOPIC_RUN_TOKEN":         "run-token",
		"DYSTOPIC_RUN_ID":            "run-42",
	}
	env, err := runenv.FromLookup(func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	fmt.Println(env.ProxyURL, env.RunID, err)

	_, err = runenv.FromLookup(func(string) (string, bool) { return "", false })
	fmt.Println(err)
	// Output:
	// http://127.0.0.1:8700 run-42 <nil>
	// run context: environment variable DYSTOPIC_ODYSSEY_PROXY_URL is not set or empty; the platform sets it in the sandbox, set it yourself when running outside
}

func ExampleEnv_SubprocessEnv() {
	env := runenv.Env{ProxyURL: "http://127.0.0.1:8700", RunToken: "run-token", TaskID: "task-7"}
	for _, kv := range env.SubprocessEnv([]string{"HOME=/home/agent", "DYSTOPIC_RUN_ID=stale"}) {
		fmt.Println(kv)
	}
	// Output:
	// HOME=/home/agent
	// DYSTOPIC_ODYSSEY_PROXY_URL=http://127.0.0.1:8700
	// DYSTOPIC_RUN_TOKEN=run-token
	// DYSTOPIC_TASK_ID=task-7
}
