"""Reading: files (PDFs, scanned pages through OCR, Markdown, text and Word) into text with positions and sections
(``extracted.ExtractedDoc``), in a child process that can be killed for PDFs."""
