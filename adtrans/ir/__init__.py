"""Ground floor: utilities on the normalised IR (Python AST in three-address form) that every
stage above uses: walking statements (:mod:`.walk`), liveness (:mod:`.liveness`), affine index
maps (:mod:`.affine`), the builder's placeholder statements (:mod:`.markers`), fresh names
(:mod:`.names`) and the one node builder (:mod:`.nodes`).  Imports nothing of adtrans."""
