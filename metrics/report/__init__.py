"""The engine's results said as text: the plain report, the plan and the findings, the comparison and its advice
(the layer above jobs/: it walks their results and fills explain/'s sentences)."""
