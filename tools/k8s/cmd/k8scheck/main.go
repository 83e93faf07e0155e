// k8scheck reads rendered Kubernetes manifests (the output of `helm template`) from the files
// named on the command line, or from standard input, and decodes every document strictly into
// the Kubernetes API's own Go types: an unknown or duplicated field, a wrong type, a kind the API
// does not know, or a document without a name fails the check. No cluster is needed, which is
// why this exists: `helm lint` checks the chart's shape, not the objects it renders.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"
)

func main() {
	inputs := os.Args[1:]
	if len(inputs) == 0 {
		inputs = []string{"-"}
	}
	strict := json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme.Scheme, scheme.Scheme,
		json.SerializerOptions{Yaml: true, Strict: true})
	checked, failed := 0, 0
	for _, name := range inputs {
		docs, err := readDocuments(name)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			os.Exit(2)
		}
		for i, doc := range docs {
			label, err := check(strict, doc)
			checked++
			if err != nil {
				failed++
				fmt.Printf("FAIL %s document %d %s: %v\n", name, i+1, label, err)
				continue
			}
			fmt.Printf("ok   %s\n", label)
		}
	}
	fmt.Printf("%d objects checked, %d failed\n", checked, failed)
	if checked == 0 {
		fmt.Fprintln(os.Stderr, "no Kubernetes objects in the input")
		os.Exit(1)
	}
	if failed > 0 {
		os.Exit(1)
	}
}

// readDocuments splits a multi-document YAML stream, dropping documents that are empty or only
// comments (helm emits those for templates whose condition is false).
func readDocuments(name string) ([][]byte, error) {
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	reader := utilyaml.NewYAMLReader(bufio.NewReader(r))
	var docs [][]byte
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		var probe map[string]interface{}
		if err := yaml.Unmarshal(doc, &probe); err != nil {
			return nil, err
		}
		if len(probe) == 0 {
			continue
		}
		docs = append(docs, bytes.Clone(doc))
	}
}

func check(strict *json.Serializer, doc []byte) (string, error) {
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := yaml.Unmarshal(doc, &head); err != nil {
		return "?", err
	}
	label := head.Kind + "/?"
	gv, err := schema.ParseGroupVersion(head.APIVersion)
	if err != nil || head.Kind == "" {
		return label, fmt.Errorf("apiVersion %q / kind %q is not a Kubernetes type", head.APIVersion, head.Kind)
	}
	gvk := gv.WithKind(head.Kind)
	if !scheme.Scheme.Recognizes(gvk) {
		return label, fmt.Errorf("%s is not a type the Kubernetes API knows", gvk)
	}
	obj, _, err := strict.Decode(doc, &gvk, nil)
	if err != nil {
		if runtime.IsStrictDecodingError(err) {
			return label, fmt.Errorf("strict decoding: %w", err)
		}
		return label, err
	}
	accessor, err := meta.Accessor(obj)
	if err != nil {
		return label, err
	}
	label = head.Kind + "/" + accessor.GetName()
	if accessor.GetName() == "" {
		return label, errors.New("metadata.name is empty")
	}
	return label, nil
}
