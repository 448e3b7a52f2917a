"""The official rating lists: monthly snapshots of the national rating, their pages, CSV and PDF files
(docs/ratings.md, "Official rating lists")."""
