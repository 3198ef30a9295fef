"""One folder per exercise (its exercise.toml with task, hints and wrong variants, its checks, stub
and solution), underscored because none of it is API: `scratchgrad.exercises.registry` lists the
exercises in the order of the story, and pages include the files as snippets.
"""
