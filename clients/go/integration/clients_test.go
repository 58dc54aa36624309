package integration_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	quarryv1 "quarry/clients/go/gen/quarry/v1"
	"quarry/clients/go/gen/quarry/v1/quarryv1connect"
)

// quarry is what the tests need of a client, so that one set of tests runs over every protocol
// and both Go libraries: the generated connect-go clients (Connect, gRPC, gRPC-Web) and the
// generated grpc-go stubs.
type quarry struct {
	snql   func(context.Context, *quarryv1.SnqlRequest) (*quarryv1.QueryResponse, error)
	mql    func(context.Context, *quarryv1.MqlRequest) (*quarryv1.QueryResponse, error)
	create func(context.Context, *quarryv1.CreateSubscriptionRequest) (*quarryv1.CreateSubscriptionResponse, error)
	list   func(context.Context, *quarryv1.ListSubscriptionsRequest) (*quarryv1.ListSubscriptionsResponse, error)
	get    func(context.Context, *quarryv1.GetSubscriptionRequest) (*quarryv1.Subscription, error)
	delete func(context.Context, *quarryv1.DeleteSubscriptionRequest) (*quarryv1.DeleteSubscriptionResponse, error)
	// failure reads a failed call's code (as connect.Code names it) and its quarry.v1.ErrorDetail.
	failure func(error) (code string, detail *quarryv1.ErrorDetail)
}

type protocol struct {
	name   string
	client func(t *testing.T) quarry
}

var protocols = []protocol{
	{"connect-go/Connect (HTTP/1.1)", func(*testing.T) quarry { return connectGo(http.DefaultClient) }},
	{"connect-go/gRPC (h2c)", func(*testing.T) quarry { return connectGo(h2cClient(), connect.WithGRPC()) }},
	{"connect-go/gRPC-Web (HTTP/1.1)", func(*testing.T) quarry { return connectGo(http.DefaultClient, connect.WithGRPCWeb()) }},
	{"grpc-go (h2c)", grpcGo},
}

// h2cClient speaks HTTP/2 without TLS ("prior knowledge"), as gRPC needs on an http:// URL.
func h2cClient() *http.Client {
	var protocols http.Protocols
	protocols.SetUnencryptedHTTP2(true)
	return &http.Client{Transport: &http.Transport{Protocols: &protocols}}
}

func connectGo(httpClient connect.HTTPClient, opts ...connect.ClientOption) quarry {
	queries := quarryv1connect.NewQueryServiceClient(httpClient, baseURL, opts...)
	subscriptions := quarryv1connect.NewSubscriptionServiceClient(httpClient, baseURL, opts...)
	return quarry{
		snql:   unwrap(queries.Snql),
		mql:    unwrap(queries.Mql),
		create: unwrap(subscriptions.CreateSubscription),
		list:   unwrap(subscriptions.ListSubscriptions),
		get:    unwrap(subscriptions.GetSubscription),
		delete: unwrap(subscriptions.DeleteSubscription),
		failure: func(err error) (string, *quarryv1.ErrorDetail) {
			var connectErr *connect.Error
			if !errors.As(err, &connectErr) {
				return "", nil
			}
			for _, detail := range connectErr.Details() {
				value, err := detail.Value()
				if errorDetail, ok := value.(*quarryv1.ErrorDetail); ok && err == nil {
					return connectErr.Code().String(), errorDetail
				}
			}
			return connectErr.Code().String(), nil
		},
	}
}

// unwrap turns a connect-go unary call into a plain request -> response function.
func unwrap[Req, Res any](call func(context.Context, *connect.Request[Req]) (*connect.Response[Res], error)) func(context.Context, *Req) (*Res, error) {
	return func(ctx context.Context, req *Req) (*Res, error) {
		res, err := call(ctx, connect.NewRequest(req))
		if err != nil {
			return nil, err
		}
		return res.Msg, nil
	}
}

func grpcGo(t *testing.T) quarry {
	conn, err := grpc.NewClient(strings.TrimPrefix(baseURL, "http://"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatalf("grpc.NewClient: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	queries := quarryv1.NewQueryServiceClient(conn)
	subscriptions := quarryv1.NewSubscriptionServiceClient(conn)
	return quarry{
		snql:   func(ctx context.Context, req *quarryv1.SnqlRequest) (*quarryv1.QueryResponse, error) { return queries.Snql(ctx, req) },
		mql:    func(ctx context.Context, req *quarryv1.MqlRequest) (*quarryv1.QueryResponse, error) { return queries.Mql(ctx, req) },
		create: func(ctx context.Context, req *quarryv1.CreateSubscriptionRequest) (*quarryv1.CreateSubscriptionResponse, error) {
			return subscriptions.CreateSubscription(ctx, req)
		},
		list: func(ctx context.Context, req *quarryv1.ListSubscriptionsRequest) (*quarryv1.ListSubscriptionsResponse, error) {
			return subscriptions.ListSubscriptions(ctx, req)
		},
		get: func(ctx context.Context, req *quarryv1.GetSubscriptionRequest) (*quarryv1.Subscription, error) {
			return subscriptions.GetSubscription(ctx, req)
		},
		delete: func(ctx context.Context, req *quarryv1.DeleteSubscriptionRequest) (*quarryv1.DeleteSubscriptionResponse, error) {
			return subscriptions.DeleteSubscription(ctx, req)
		},
		failure: func(err error) (string, *quarryv1.ErrorDetail) {
			st, ok := status.FromError(err)
			if !ok {
				return "", nil
			}
			// connect.Code and gRPC codes share numbers; report the name connect-go uses.
			code := connect.Code(st.Code()).String()
			for _, detail := range st.Details() {
				if errorDetail, ok := detail.(*quarryv1.ErrorDetail); ok {
					return code, errorDetail
				}
			}
			return code, nil
		},
	}
}

// eachProtocol runs test once per protocol and client library, as subtests.
func eachProtocol(t *testing.T, test func(t *testing.T, client quarry)) {
	t.Helper()
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			test(t, p.client(t))
		})
	}
}
