"""The rules as a whole, as the engine and the command line see them: every registered rule and a
selection of them (`selection`), the text prefilter that turns files away before parsing
(`prefilter`, with its generated `trigger_table`), and the rule reference (`docs`). A rule's author
writes against `tf24migrate.rules`; nothing here is needed to write a rule."""
