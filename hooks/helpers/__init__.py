"""What the hooks share and call: modules MkDocs does not load as hooks (hooks/README.md)."""
