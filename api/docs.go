package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
)

// referencePath is the console's page of the API reference (GET /reference, extension),
// built from the contract with the console.
const referencePath = "/reference"

// docsReferenceRedirect serves GET /docs and GET /api/v1/docs (extension): where a person
// looks for the API's documentation. A browser is sent to the reference page; any other
// client gets the 404 Problem of a path with nothing to answer.
func (s *Server) docsReferenceRedirect(c *gin.Context) {
	if !acceptsHTML(c.GetHeader("Accept")) {
		httpx.NotFound(c)
		return
	}
	c.Redirect(http.StatusFound, referencePath)
}

// docsOpenAPIYAML serves GET /api/v1/docs/openapi.yaml.
func (s *Server) docsOpenAPIYAML(c *gin.Context) {
	c.Data(http.StatusOK, "application/yaml; charset=utf-8", s.Contract.YAML)
}

// docsOpenAPIJSON serves GET /api/v1/docs/openapi.json.
func (s *Server) docsOpenAPIJSON(c *gin.Context) {
	c.Data(http.StatusOK, "application/json; charset=utf-8", s.Contract.JSON)
}

// docsEndpoints serves GET /api/v1/docs/endpoints: the EndpointDocList generated from the
// contract.
func (s *Server) docsEndpoints(c *gin.Context) {
	c.JSON(http.StatusOK, s.Contract.EndpointDocs(s.PublicURL, s.Now()))
}

// collectionPath is where the generated collection is downloaded from.
const collectionPath = "/api/v1/docs/testing/collection.json"

// docsTestingCollection serves GET /api/v1/docs/testing/collection.
func (s *Server) docsTestingCollection(c *gin.Context) {
	c.JSON(http.StatusOK, s.Contract.TestingCollectionInfo(s.PublicURL+collectionPath))
}

// docsTestingCollectionDownload serves GET /api/v1/docs/testing/collection.json (extension):
// the collection itself.
func (s *Server) docsTestingCollectionDownload(c *gin.Context) {
	c.JSON(http.StatusOK, s.Contract.PostmanCollection(s.PublicURL))
}
