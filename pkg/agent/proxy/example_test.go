package proxy_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/dystopic/normalizer/pkg/agent/proxy"
	"github.com/dystopic/normalizer/pkg/agent/proxy/proxytest"
)

// exampleTB stands in for the *testing.T a real test hands to proxytest.New.
type exampleTB struct {
	testing.TB
	cleanups []func()
}

func (tb *exampleTB) Helper()                      {}
func (tb *exampleTB) Cleanup(f func())             { tb.cleanups = append(tb.cleanups, f) }
func (tb *exampleTB) Errorf(f string, args ...any) { fmt.Printf("test failed: "+f+"\n", args...) }
func (tb *exampleTB) Fatalf(f string, args ...any) { panic(fmt.Sprintf(f, args...)) }
func (tb *exampleTB) done() {
	for i := len(tb.cleanups) - 1; i >= 0; i-- {
		tb.cleanups[i]()
	}
}

func Example() {
	tb := &exampleTB{}
	defer tb.done()
	fake := proxytest.New(tb)
	fake.Respond("get_order", proxytest.Reply(map[string]string{"status": "shipped"}))

	// In the sandbox: client, err := proxy.FromEnv()
	client, err := proxy.FromRunEnv(fake.RunEnv())
	if err != nil {
		fmt.Println(err)
		return
	}
	order, err := client.Call(context.Background(), "get_order", map[string]string{"order_id": "4521"})
	fmt.Println(string(order), err)
	// Output:
	// {"status":"shipped"} <nil>
}

func ExampleClient_CallReply() {
	tb := &exampleTB{}
	defer tb.done()
	fake := proxytest.New(tb)
	fake.Respond("charge_card", proxytest.Injected(map[string]string{"error": "card_declined"}, 0))

	reply, err := fake.Client().CallReply(context.Background(), "charge_card", map[string]int{"amount": 100})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(reply.Source, *reply.MatchedRuleIndex, string(reply.Response))
	// Output:
	// injected 0 {"error":"card_declined"}
}

func ExampleClient_ForActor() {
	tb := &exampleTB{}
	defer tb.done()
	fake := proxytest.New(tb)
	fake.Respond("search", proxytest.Reply([]string{"doc-1"}))

	researcher := fake.Client().ForActor("researcher")
	_, _ = researcher.Call(context.Background(), "search", map[string]string{"q": "refunds"})
	req := fake.Requests()[0]
	fmt.Println(req.Header.Get("X-Pipelines-Actor-Id"), string(req.Body))
	// Output:
	// researcher {"q":"refunds"}
}

func ExampleIsStaleRunToken() {
	tb := &exampleTB{}
	defer tb.done()
	fake := proxytest.New(tb)
	fake.Respond("get_order", proxytest.Reply("ok"))
	fake.ExpireToken("run_token_expired") // the run closes

	_, err := fake.Client().Call(context.Background(), "get_order", nil)
	fmt.Println(proxy.IsStaleRunToken(err))
	var pe *proxy.ProxyCallError
	if errors.As(err, &pe) {
		fmt.Println(pe.Status, pe.ErrorClass)
	}
	// Output:
	// true
	// 401 run_token_expired
}

func ExampleBackoff() {
	for retry := range 3 {
		fmt.Println(proxy.Backoff(retry, 0), proxy.Backoff(retry, 0.5), proxy.Backoff(retry, 1))
	}
	// Output:
	// 375ms 500ms 625ms
	// 750ms 1s 1.25s
	// 1.5s 2s 2.5s
}
