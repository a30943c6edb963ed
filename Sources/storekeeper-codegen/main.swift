// The build-tool plugin's tool (placeholder: filled in by issue 7).
