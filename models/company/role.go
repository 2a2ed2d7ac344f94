package company

// Role is a member's role in a company.
type Role string

const (
	RoleOwner  Role = "owner"
	RoleAdmin  Role = "admin"
	RoleMember Role = "member"
	RoleViewer Role = "viewer"
)

// Roles lists the roles from most to least privileged.
var Roles = []Role{RoleOwner, RoleAdmin, RoleMember, RoleViewer}

// Permission is something a role may do inside a company.
type Permission string

// The permission table; docs/companies.md shows the same table for readers of the API.
const (
	// PermRead: read the company, its members, projects and legal entities.
	PermRead Permission = "read"
	// PermWork: create and change projects (and, later, the work inside them).
	PermWork Permission = "work"
	// PermManage: change the company, its legal entities, members (below owner) and
	// project secrets.
	PermManage Permission = "manage"
	// PermOwn: grant or remove the owner role.
	PermOwn Permission = "own"
)

var permissions = map[Role][]Permission{
	RoleOwner:  {PermRead, PermWork, PermManage, PermOwn},
	RoleAdmin:  {PermRead, PermWork, PermManage},
	RoleMember: {PermRead, PermWork},
	RoleViewer: {PermRead},
}

// Can reports whether the role grants p.
func (r Role) Can(p Permission) bool {
	for _, have := range permissions[r] {
		if have == p {
			return true
		}
	}
	return false
}

// Valid reports whether r is a known role.
func (r Role) Valid() bool {
	_, ok := permissions[r]
	return ok
}
